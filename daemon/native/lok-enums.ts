/**
 * The LibreOfficeKit enum numbers now live in daemon/protocol/lok-enums.ts (they cross the kit boundary: kit.md
 * `callback`); this re-export keeps the kit's older imports working until they import protocol/ directly.
 */
export * from '../protocol/lok-enums.ts';
