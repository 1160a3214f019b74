import type { App } from '../core/app.ts';

/** LOK JSON argument values. */
export const str = (value: string) => ({ type: 'string', value });
export const long = (value: number) => ({ type: 'long', value });
export const bool = (value: boolean) => ({ type: 'boolean', value });

/** Moves the cell cursor (or selects a range: `B:B`, `3:3`, `A1:C4`): `.uno:GoToCell` with ToPoint. */
export function goToCell(app: App, address: string): void {
  app.session.uno('.uno:GoToCell', { ToPoint: str(address) });
}

/**
 * Puts `text` in the current cell as if typed and confirmed (a formula when it starts with `=`):
 * `.uno:EnterString` with StringName (LibreOffice's sc cellsh.cxx SID_ENTER_STRING, in 7.4 as in 25.2). The cursor stays.
 */
export function enterString(app: App, text: string): void {
  app.session.uno('.uno:EnterString', { StringName: str(text) });
}
