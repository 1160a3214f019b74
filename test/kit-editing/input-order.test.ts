import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VclKeyCode, VclKeyModifier } from '../../daemon/protocol/lok-enums.ts';
import type { KitEditEvent } from '../../daemon/protocol/kit.ts';
import type { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import { DOCX, endKit, LIMITS, stage, startKit } from './helpers.ts';

/** Input and up events of one named key (VCL key code with modifier bits). */
function press(keyCode: number, times = 1): KitEditEvent[] {
  const out: KitEditEvent[] = [];
  for (let i = 0; i < times; i++) out.push({ type: 'key', event: 'input', charCode: 0, keyCode }, { type: 'key', event: 'up', charCode: 0, keyCode });
  return out;
}

/**
 * Input order in a real kit (issues 16 and 17, docs/editing.md "Input order"): bursts of posted keys, text input,
 * UNO commands, paste and copy sent without waiting, as a fast typist or the edit journal's replay sends them; the
 * document read back (an in-order text export) must hold them in the order they were sent. The kit runs the fence
 * mode (ODE_KIT_INPUT_ORDER=fence; the timing mode fails 1 to 3 of these 5, docs/editing.md "Input order").
 */
describe('kit input order: posted and synchronous calls keep the order they were sent in', () => {
  let kit: KitProcess;
  let tmp: string;
  let v: number;
  let n = 0;
  beforeAll(async () => {
    // This test file's own worker process: the kit it starts inherits the variable.
    process.env.ODE_KIT_INPUT_ORDER = 'fence';
    ({ kit, tmp } = await startKit());
    v = (await kit.open({ input: stage(kit, DOCX), userName: 'Alice' }, LIMITS)).viewId;
  });
  afterAll(async () => endKit(kit, tmp));

  const send = (events: KitEditEvent[]) => {
    for (const e of events) kit.sendEvent(v, e);
  };
  /** The document's last paragraph, from a text export made in input order. */
  const lastLine = async (): Promise<string> => {
    const txt = join(tmp, `order-${n++}.txt`);
    await kit.exportDoc(txt, 'txt', undefined, { inOrder: true });
    const lines = readFileSync(txt, 'utf8')
      .split(/\r?\n/)
      .filter((l) => l.length > 0);
    rmSync(txt);
    return lines.at(-1) ?? '';
  };
  /** A new last paragraph holding `text`, the cursor at its end. */
  const paragraph = (text: string) =>
    send([
      { type: 'uno', command: '.uno:GoToEndOfDoc' },
      { type: 'textInput', text: `\n${text}` },
    ]);

  it('a keyboard autocorrect replay (7 arrows left, a letter, 7 arrows right) lands the letter where the arrows put the cursor', async () => {
    for (let round = 0; round < 3; round++) {
      paragraph(`Typed on a mobil device ${round}`);
      send([...press(VclKeyCode.KEY_LEFT, 9), { type: 'textInput', text: 'e' }, ...press(VclKeyCode.KEY_RIGHT, 9), { type: 'textInput', text: '!' }]);
      expect(await lastLine()).toBe(`Typed on a mobile device ${round}!`);
    }
  });

  it('a space typed after a posted End key lands at the line end', async () => {
    for (let round = 0; round < 3; round++) {
      paragraph(`start${round}`);
      send([...press(VclKeyCode.KEY_HOME), ...press(VclKeyCode.KEY_END), { type: 'textInput', text: ' end' }]);
      expect(await lastLine()).toBe(`start${round} end`);
    }
  });

  it("a paste after posted arrows lands at the arrows' cursor; text typed after the paste follows it", async () => {
    paragraph('abcdefghij');
    send(press(VclKeyCode.KEY_LEFT, 7));
    const pasted = kit.paste(v, 'text/plain;charset=utf-8', new TextEncoder().encode('X'));
    send([...press(VclKeyCode.KEY_RIGHT, 7), { type: 'textInput', text: 'Z' }]);
    expect(await pasted).toBe(true);
    expect(await lastLine()).toBe('abcXdefghijZ');
  });

  it("a UNO command after posted arrows acts at the arrows' cursor", async () => {
    paragraph('12345');
    send([...press(VclKeyCode.KEY_LEFT, 2), { type: 'uno', command: '.uno:SwBackspace' }, { type: 'textInput', text: 'x' }]);
    expect(await lastLine()).toBe('12x45');
  });

  it('a copy right after Shift+arrows reads the selection they made', async () => {
    paragraph('copy this word');
    send(press(VclKeyCode.KEY_LEFT | VclKeyModifier.KEY_SHIFT, 4));
    const got = await kit.clipboardGet(v, ['text/plain;charset=utf-8']);
    expect(new TextDecoder().decode(got[0]?.data)).toBe('word');
    send(press(VclKeyCode.KEY_END));
  });
});
