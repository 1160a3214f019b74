import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { allowedInReadOnly } from '../../daemon/kit/edit-events.ts';
import { encodeTilePng } from '../../daemon/kit/edit-png.ts';
import { VclKeyCode, VclKeyModifier } from '../../daemon/protocol/lok-enums.ts';

describe('tile PNG encoding (BGRA premultiplied, top-down -> RGBA straight alpha)', () => {
  it('swaps channels, un-premultiplies, keeps row order, and pngjs decodes it', async () => {
    // 3x2 px: opaque red, opaque white, transparent / half-transparent blue (premultiplied 64 of 128), opaque black, 25 % green.
    const bgra = Uint8Array.from([0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 64, 0, 0, 128, 0, 0, 0, 255, 0, 50, 0, 64]);
    const img = PNG.sync.read(await encodeTilePng(bgra, 3, 2));
    expect([img.width, img.height]).toEqual([3, 2]);
    expect([...img.data]).toEqual([255, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 128, 128, 0, 0, 0, 255, 0, 199, 0, 64]);
  });

  it('refuses a buffer of the wrong size', async () => {
    await expect(encodeTilePng(new Uint8Array(10), 2, 2)).rejects.toThrow(RangeError);
  });
});

describe("what a read-only view may send (the kit's filter; LibreOffice 25.2's setViewReadOnly is the second wall: view-rights.test.ts)", () => {
  const key = (charCode: number, keyCode: number) => ({ type: 'key', event: 'input', charCode, keyCode }) as const;
  it('navigation keys, also selecting with Shift and Ctrl; copy and select all', () => {
    expect(allowedInReadOnly(key(0, VclKeyCode.KEY_DOWN))).toBe(true);
    expect(allowedInReadOnly(key(0, VclKeyCode.KEY_END | VclKeyModifier.KEY_SHIFT | VclKeyModifier.KEY_MOD1))).toBe(true);
    expect(allowedInReadOnly(key(99, 512 + 2 + VclKeyModifier.KEY_MOD1))).toBe(true); // Ctrl+C
    expect(allowedInReadOnly(key(97, 512 + VclKeyModifier.KEY_MOD1))).toBe(true); // Ctrl+A
  });
  it('typing, deleting, Return, Tab, cut, paste, undo are dropped', () => {
    expect(allowedInReadOnly(key(97, 0))).toBe(false);
    expect(allowedInReadOnly(key(0, VclKeyCode.KEY_BACKSPACE))).toBe(false);
    expect(allowedInReadOnly(key(0, VclKeyCode.KEY_DELETE))).toBe(false);
    expect(allowedInReadOnly(key(13, VclKeyCode.KEY_RETURN))).toBe(false);
    expect(allowedInReadOnly(key(9, VclKeyCode.KEY_TAB))).toBe(false);
    expect(allowedInReadOnly(key(120, 512 + 23 + VclKeyModifier.KEY_MOD1))).toBe(false); // Ctrl+X
    expect(allowedInReadOnly(key(118, 512 + 21 + VclKeyModifier.KEY_MOD1))).toBe(false); // Ctrl+V
    expect(allowedInReadOnly(key(122, 512 + 25 + VclKeyModifier.KEY_MOD1))).toBe(false); // Ctrl+Z
    expect(allowedInReadOnly({ type: 'textInput', text: 'x' })).toBe(false);
    expect(allowedInReadOnly({ type: 'composition', text: 'x', stage: 'end' })).toBe(false);
    expect(allowedInReadOnly({ type: 'dialogEvent', windowId: 1, event: { id: 'ok', cmd: 'click', type: 'pushbutton' } })).toBe(false);
    expect(allowedInReadOnly({ type: 'windowKey', windowId: 1, event: 'input', charCode: 97, keyCode: 0 })).toBe(false);
  });
  it('UNO commands: only copying, selecting, moving, finding and zooming', () => {
    for (const command of ['.uno:Copy', '.uno:SelectAll', '.uno:GoToEndOfDoc', '.uno:GoDown', '.uno:JumpToNextTable', '.uno:ZoomPlus', '.uno:WordRightSel']) {
      expect(allowedInReadOnly({ type: 'uno', command }), command).toBe(true);
    }
    for (const command of [
      '.uno:Bold',
      '.uno:Delete',
      '.uno:Paste',
      '.uno:Cut',
      '.uno:Undo',
      '.uno:InsertTable',
      '.uno:Save',
      '.uno:SetDocumentProperties',
      '.uno:AcceptAllTrackedChanges',
    ]) {
      expect(allowedInReadOnly({ type: 'uno', command }), command).toBe(false);
    }
    const search = (cmd: number) =>
      JSON.stringify({ 'SearchItem.SearchString': { type: 'string', value: 'a' }, 'SearchItem.Command': { type: 'long', value: String(cmd) } });
    expect(allowedInReadOnly({ type: 'uno', command: '.uno:ExecuteSearch', args: search(0) })).toBe(true);
    expect(allowedInReadOnly({ type: 'uno', command: '.uno:ExecuteSearch', args: search(1) })).toBe(true);
    expect(allowedInReadOnly({ type: 'uno', command: '.uno:ExecuteSearch', args: search(3) })).toBe(false); // replace all
    expect(allowedInReadOnly({ type: 'uno', command: '.uno:ExecuteSearch', args: '{bad' })).toBe(false);
  });
  it('mouse, selection handles, parts, zoom and visible area pass', () => {
    expect(allowedInReadOnly({ type: 'mouse', event: 'buttondown', x: 1, y: 1, count: 1, buttons: 1, modifier: 0 })).toBe(true);
    expect(allowedInReadOnly({ type: 'selectText', kind: 'end', x: 1, y: 1 })).toBe(true);
    expect(allowedInReadOnly({ type: 'setPart', part: 1 })).toBe(true);
    expect(allowedInReadOnly({ type: 'clientVisibleArea', x: 0, y: 0, width: 100, height: 100 })).toBe(true);
  });
});
