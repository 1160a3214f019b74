/**
 * The browser's IANA time zone (e.g. `Europe/Paris`), sent in the `load` message and given to this user's
 * LibreOffice view (editor.md `load.timezone`; LOK setViewTimezone, as Collabora's browser sends `timezone=` with its
 * load). In LibreOffice 25.2 it sets the time of Calc's Insert Current Time / Date; NOW() and Writer's fields keep
 * the server's zone (docs/editing.md). Undefined when the browser does not tell (an empty or `Etc/Unknown` zone).
 */
export function browserTimezone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && zone !== 'Etc/Unknown' ? zone : undefined;
  } catch {
    return undefined;
  }
}
