import { describe, expect, it } from 'vitest';
import { clip, mouseButton, mouseButtons, parseWindowEvent, union, windowKey } from './model.ts';
import { keyLike as key } from '../view/test-support.ts';

describe('LibreOffice window events and input (dialogs/model.ts)', () => {
  it('reads LOK_CALLBACK_WINDOW payloads as LibreOffice 7.4 sends them (numbers in strings)', () => {
    expect(parseWindowEvent({ id: '2', action: 'created', type: 'dialog', size: '887, 576', title: 'Paragraph' })).toEqual({
      id: 2,
      action: 'created',
      type: 'dialog',
      size: { width: 887, height: 576 },
      title: 'Paragraph',
    });
    expect(parseWindowEvent({ id: '2', action: 'invalidate', rectangle: '8, 8, 870, 559' })).toEqual({
      id: 2,
      action: 'invalidate',
      rect: { x: 8, y: 8, width: 870, height: 559 },
    });
    expect(parseWindowEvent({ id: '5', action: 'created', type: 'child', parentId: '2', position: '170, 90', size: '120, 200' })).toMatchObject({
      parentId: 2,
      position: { x: 170, y: 90 },
    });
    expect(parseWindowEvent({ id: '2', action: 'cursor_visible', visible: 'false' })).toMatchObject({ visible: false });
    expect(parseWindowEvent({ action: 'close' })).toBeUndefined();
    expect(parseWindowEvent('nope')).toBeUndefined();
    // A rectangle that is not four numbers means the whole window.
    expect(parseWindowEvent({ id: '2', action: 'invalidate', rectangle: 'EMPTY' })?.rect).toBeUndefined();
  });

  it('joins and clips invalidated areas to whole pixels of the window', () => {
    expect(union(undefined, { x: 1, y: 2, width: 3, height: 4 })).toEqual({ x: 1, y: 2, width: 3, height: 4 });
    expect(union({ x: 0, y: 0, width: 10, height: 10 }, { x: 20, y: 5, width: 5, height: 20 })).toEqual({ x: 0, y: 0, width: 25, height: 25 });
    expect(clip({ x: -5, y: 10.5, width: 100, height: 5 }, 50, 40)).toEqual({ x: 0, y: 10, width: 50, height: 6 });
    expect(clip({ x: 60, y: 0, width: 10, height: 10 }, 50, 40)).toBeUndefined();
  });

  it('maps browser keys to vcl window key events', () => {
    expect(windowKey(key('Escape'))).toEqual({ charCode: 27, keyCode: 1281 });
    expect(windowKey(key('Tab', 'Tab', { shiftKey: true }))).toEqual({ charCode: 9, keyCode: 1282 | 0x1000 });
    expect(windowKey(key('End', 'End', { shiftKey: true }))).toEqual({ charCode: 0, keyCode: 1029 | 0x1000 });
    expect(windowKey(key('1', 'Digit1'))).toEqual({ charCode: 49, keyCode: 0 });
    expect(windowKey(key('"', 'Quote', { shiftKey: true }))).toEqual({ charCode: 34, keyCode: 0 });
    expect(windowKey(key('é', 'Digit2'))).toEqual({ charCode: 0xe9, keyCode: 0 });
    // Ctrl+A selects a field; Alt+O is a mnemonic (the character kept); AltGr (Ctrl+Alt) types text.
    expect(windowKey(key('a', 'KeyA', { ctrlKey: true }))).toEqual({ charCode: 0, keyCode: 512 | 0x2000 });
    expect(windowKey(key('o', 'KeyO', { altKey: true }))).toEqual({ charCode: 111, keyCode: (512 + 14) | 0x4000 });
    expect(windowKey(key('@', 'KeyQ', { ctrlKey: true, altKey: true }))).toEqual({ charCode: 64, keyCode: 0 });
    expect(windowKey(key('Shift', 'ShiftLeft', { shiftKey: true }))).toBeUndefined();
    expect(windowKey(key('Dead', 'BracketLeft'))).toBeUndefined();
  });

  it("maps mouse buttons to LibreOffice's (left 1, middle 2, right 4)", () => {
    expect([mouseButton(0), mouseButton(1), mouseButton(2)]).toEqual([1, 2, 4]);
    expect(mouseButtons(1 | 2)).toBe(1 | 4);
    expect(mouseButtons(4)).toBe(2);
  });
});
