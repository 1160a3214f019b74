import { describe, expect, it } from 'vitest';
import { LOK_CALLBACK_INVALIDATE_TILES, LOK_CALLBACK_SET_PART, LOK_DOCTYPE_PRESENTATION, LOK_DOCTYPE_TEXT } from '../protocol/lok-enums.ts';
import { forwardedPayload } from './text-parts.ts';

describe('forwardedPayload: a text document is part 0', () => {
  it("rewrites the part of Writer's INVALIDATE_TILES (a page number) to 0, keeping the rectangle and the mode", () => {
    expect(forwardedPayload(LOK_DOCTYPE_TEXT, LOK_CALLBACK_INVALIDATE_TILES, '1440, 17280, 9000, 600, 1, 0')).toBe('1440, 17280, 9000, 600, 0, 0');
    expect(forwardedPayload(LOK_DOCTYPE_TEXT, LOK_CALLBACK_INVALIDATE_TILES, '1440, 17280, 9000, 600, 3')).toBe('1440, 17280, 9000, 600, 0');
    expect(forwardedPayload(LOK_DOCTYPE_TEXT, LOK_CALLBACK_INVALIDATE_TILES, 'EMPTY, 2, 0')).toBe('EMPTY, 0, 0');
  });

  it('leaves payloads without a part, other callbacks and other document types as they are', () => {
    expect(forwardedPayload(LOK_DOCTYPE_TEXT, LOK_CALLBACK_INVALIDATE_TILES, '0, 0, 100, 100')).toBe('0, 0, 100, 100');
    expect(forwardedPayload(LOK_DOCTYPE_TEXT, LOK_CALLBACK_INVALIDATE_TILES, 'EMPTY')).toBe('EMPTY');
    expect(forwardedPayload(LOK_DOCTYPE_TEXT, LOK_CALLBACK_SET_PART, '1')).toBe('1');
    expect(forwardedPayload(LOK_DOCTYPE_PRESENTATION, LOK_CALLBACK_INVALIDATE_TILES, '0, 0, 100, 100, 2, 0')).toBe('0, 0, 100, 100, 2, 0');
  });
});
