/**
 * The browser's IANA time zone (e.g. `Europe/Paris`), sent in the `load` message so that LibreOffice's date/time
 * fields and NOW() in this user's view follow it (editor.md `load.timezone`; LOK setViewTimezone, as Collabora's
 * browser sends `timezone=` with its load). Undefined when the browser does not tell (an empty or `Etc/Unknown` zone).
 */
export function browserTimezone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && zone !== 'Etc/Unknown' ? zone : undefined;
  } catch {
    return undefined;
  }
}
