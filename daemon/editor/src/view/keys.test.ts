import { describe, expect, it } from 'vitest';
import { withMetaOrigin, metaOriginOf } from './clipboard.ts';
import { comboOf, vclKey } from './keys.ts';
import { keyLike as key } from './test-support.ts';

describe('browser keys to vcl key codes (include/vcl/keycodes.hxx)', () => {
  it('maps the cursor block, function keys and editing keys with their modifiers', () => {
    expect(vclKey(key('ArrowLeft', 'ArrowLeft'))).toEqual({ charCode: 0, keyCode: 1026 });
    expect(vclKey(key('End', 'End', { ctrlKey: true, shiftKey: true }))).toEqual({ charCode: 0, keyCode: 1029 | 0x1000 | 0x2000 });
    expect(vclKey(key('PageDown', 'PageDown', { shiftKey: true }))).toEqual({ charCode: 0, keyCode: 1031 | 0x1000 });
    expect(vclKey(key('F2', 'F2'))).toEqual({ charCode: 0, keyCode: 769 });
    expect(vclKey(key('F12', 'F12'))).toEqual({ charCode: 0, keyCode: 779 });
    expect(vclKey(key('Enter', 'Enter', { ctrlKey: true }))).toEqual({ charCode: 13, keyCode: 1280 | 0x2000 });
    expect(vclKey(key('Tab', 'Tab', { shiftKey: true }))).toEqual({ charCode: 9, keyCode: 1282 | 0x1000 });
    expect(vclKey(key('Backspace', 'Backspace', { ctrlKey: true }))).toEqual({ charCode: 8, keyCode: 1283 | 0x2000 });
    expect(vclKey(key('Delete', 'Delete'))).toEqual({ charCode: 0, keyCode: 1286 });
  });
  it('Ctrl with letters, digits and punctuation goes as keys; text (also AltGr) does not', () => {
    expect(vclKey(key('k', 'KeyK', { ctrlKey: true }))).toEqual({ charCode: 0, keyCode: (512 + 10) | 0x2000 });
    expect(vclKey(key('1', 'Digit1', { ctrlKey: true }))).toEqual({ charCode: 0, keyCode: 257 | 0x2000 });
    expect(vclKey(key('-', 'Minus', { ctrlKey: true }))).toEqual({ charCode: 0, keyCode: 1288 | 0x2000 });
    expect(vclKey(key(' ', 'Space', { ctrlKey: true }))).toEqual({ charCode: 32, keyCode: 1284 | 0x2000 });
    expect(vclKey(key('a', 'KeyA'))).toBeUndefined();
    expect(vclKey(key('A', 'KeyA', { shiftKey: true }))).toBeUndefined();
    expect(vclKey(key('@', 'KeyQ', { ctrlKey: true, altKey: true }))).toBeUndefined();
  });
  it('writes combinations as the command table does', () => {
    expect(comboOf(key('S', 'KeyS', { ctrlKey: true, shiftKey: true }))).toBe('Ctrl+Shift+S');
    expect(comboOf(key('z', 'KeyZ', { metaKey: true }))).toBe('Ctrl+Z');
    expect(comboOf(key('Insert', 'Insert', { shiftKey: true }))).toBe('Shift+Insert');
  });
});

describe('the meta-origin marker (spec: HTML clipboard extensions)', () => {
  it('goes first in the body and is read back, escaped attribute included', () => {
    const origin = 'http://ode.example:9980/ode/clipboard?WOPISrc=x&ViewId=2';
    const html = withMetaOrigin('<html><body class="b"><p>Hi</p></body></html>', origin);
    expect(html).toBe(
      '<html><body class="b"><div id="meta-origin" data-odeorigin="http://ode.example:9980/ode/clipboard?WOPISrc=x&amp;ViewId=2"></div><p>Hi</p></body></html>',
    );
    expect(metaOriginOf(html)).toBe(origin);
    expect(metaOriginOf(withMetaOrigin('<p>frag</p>', 'o'))).toBe('o');
    expect(metaOriginOf('<p>no marker</p>')).toBeUndefined();
  });
});
