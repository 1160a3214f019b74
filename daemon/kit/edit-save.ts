import type { LokDocument } from '../native/index.ts';
import { LOK_CALLBACK_UNO_COMMAND_RESULT } from '../protocol/lok-enums.ts';

/** How long the kit waits for LibreOffice's answer to `.uno:Save` before answering with an error (ms). */
export const SAVE_TIMEOUT_MS = 55_000;

/** An error with one of kit.md's codes. */
export function kitError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

/** LOK_CALLBACK_UNO_COMMAND_RESULT payload: `{commandName, success, result?: {type, value}}`. */
interface UnoResult {
  commandName?: string;
  success?: boolean | string;
  result?: { type?: string; value?: unknown };
}

/**
 * Waits for the UNO_COMMAND_RESULT of `.uno:Save` among a view's callbacks. The session feeds every callback of
 * that view to `offer`; the first `.uno:Save` result settles `done`.
 */
export class SaveWaiter {
  readonly done: Promise<{ saved: boolean }>;
  #settle!: (r: { saved: boolean } | Error) => void;
  #timer: NodeJS.Timeout;

  constructor(timeoutMs: number) {
    this.done = new Promise((resolve, reject) => {
      this.#settle = (r) => (r instanceof Error ? reject(r) : resolve(r));
    });
    this.#timer = setTimeout(
      () => this.#settle(kitError('timeout', `LibreOffice did not answer .uno:Save within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
  }

  /** Looks at one callback of the saving view; true when it was the save's answer. */
  offer(type: number, payload: string): boolean {
    if (type !== LOK_CALLBACK_UNO_COMMAND_RESULT) return false;
    let r: UnoResult;
    try {
      r = JSON.parse(payload) as UnoResult;
    } catch {
      return false;
    }
    if (r.commandName !== '.uno:Save') return false;
    clearTimeout(this.#timer);
    if (r.success === true || r.success === 'true') this.#settle({ saved: true });
    // LOK (7.4 and 25.2: kit-editing/editing.test.ts, the skipped second save) answers success false with result {type: 'string', value: 'unmodified'} when DontSaveIfUnmodified skipped the save.
    else if (r.result?.value === 'unmodified') this.#settle({ saved: false });
    else this.#settle(kitError('save_failed', `LibreOffice could not save the document${r.result?.value ? ` (${String(r.result.value)})` : ''}`));
    return true;
  }

  /** Fails the wait (the document is closing). */
  abort(err: Error): void {
    clearTimeout(this.#timer);
    this.#settle(err);
  }
}

/**
 * Dispatches `.uno:Save` (in place, to the URL the document was loaded from) in the current view, with
 * `DontSaveIfUnmodified` and `DontTerminateEdit`, asking for UNO_COMMAND_RESULT. With `dontTerminateEdit` false
 * LibreOffice enters the text of a cell being edited before saving (ScTabViewShell::ExecuteSave); with true the
 * cell stays in edit mode and its text is not in the file (Collabora's autosave; issue 16). The caller has set
 * the view and routes that view's callbacks to `waiter.offer`.
 */
export function postSave(doc: LokDocument, dontSaveIfUnmodified: boolean, dontTerminateEdit: boolean): void {
  const args = {
    DontTerminateEdit: { type: 'boolean', value: String(dontTerminateEdit) },
    DontSaveIfUnmodified: { type: 'boolean', value: String(dontSaveIfUnmodified) },
  };
  doc.postUnoCommand('.uno:Save', JSON.stringify(args), true);
}
