import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LOK_CALLBACK_JSDIALOG } from '../../daemon/protocol/lok-enums.ts';
import type { KitEditEvent } from '../../daemon/protocol/kit.ts';
import type { KitProcess } from '../../daemon/server/pool/kit-process.ts';
import { keyEvents, LIMITS, nextCallback, sleep, stage, useKit } from './helpers.ts';

const WORKBOOK = '/work/shared/corpus/spreadsheets/SampleSS.xlsx';

/** The text of every cell of an xlsx: its shared strings and worksheets, joined. */
function xlsxText(path: string): string {
  const parts = unzipSync(readFileSync(path), { filter: (f) => f.name === 'xl/sharedStrings.xml' || f.name.startsWith('xl/worksheets/') });
  return Object.values(parts)
    .map((p) => strFromU8(p))
    .join('\n');
}

/** The formula bar's text in a LOK_CALLBACK_JSDIALOG `setText` payload (LibreOffice 25.2), or undefined. */
function formulaBarText(payload: string): string | undefined {
  try {
    const m = JSON.parse(payload) as { jsontype?: string; data?: { control_id?: string; action_type?: string; text?: string } };
    return m.jsontype === 'formulabar' && m.data?.control_id === 'sc_input_window' && m.data.action_type === 'setText' ? m.data.text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens a copy of WORKBOOK in `kit` for user Ada: its path, the view, `typeText` (each character's key events to that
 * view) and `shows(text)` (resolves when LibreOffice's formula bar of the view shows `text`; 30 s at most).
 */
async function openWorkbook(kit: KitProcess) {
  const input = stage(kit, WORKBOOK);
  const v = (await kit.open({ input, userName: 'Ada' }, LIMITS)).viewId;
  const typeText = (s: string) => {
    for (const e of [...s].flatMap(keyEvents) as KitEditEvent[]) kit.sendEvent(v, e);
  };
  const shows = (text: string) =>
    nextCallback(kit, (id, type, p) => id === v && type === LOK_CALLBACK_JSDIALOG && formulaBarText(p) === text, 30_000, `formula bar '${text}'`);
  return { input, v, typeText, shows };
}

/**
 * The kit's `saveDoc` with `reenterCell` (issue 16, the idle save): the cell being edited is entered for the save and
 * put back into edit mode; keys sent while the save runs wait for that and go on in the cell. Real LibreOffice.
 */
describe('kit editing: a save that enters a cell being edited and puts it back into edit mode', () => {
  const k = useKit();

  it("'Hello', the save, 'World' sent right behind the save request: the file has 'Hello', the cell goes on to 'HelloWorld'", async () => {
    const { input, v, typeText, shows } = await openWorkbook(k.kit);
    const hello = shows('Hello');
    typeText('Hello');
    await hello;
    const helloWorld = shows('HelloWorld');
    const saving = k.kit.saveDoc(v, false, false, true);
    // 'World' one key every 15 ms from the save request on: keys before the save are in it, keys during it wait
    // for the re-entry, keys after it go on in the cell; in every case they follow 'Hello' in order.
    for (const ch of 'World') {
      typeText(ch);
      await sleep(15);
    }
    expect(await saving).toEqual({ saved: true });
    const saved = xlsxText(input);
    expect(saved).toContain('Hello');
    // A new edit would show 'World': the keys went on after the caret of the cell put back into edit mode.
    await helloWorld;
    k.kit.sendEvent(v, { type: 'key', event: 'input', charCode: 13, keyCode: 1280 });
    k.kit.sendEvent(v, { type: 'key', event: 'up', charCode: 13, keyCode: 1280 });
    expect(await k.kit.saveDoc(v, false)).toEqual({ saved: true });
    expect(xlsxText(input)).toMatch(/>HelloWorld</);
  }, 120_000);
});

describe('kit editing: a save that may enter a cell keeps a formula being typed in edit mode', () => {
  const k = useKit();

  it('a formula being typed is not entered: editKept, the file lacks it, the cell is still in edit mode', async () => {
    const { input, v, typeText, shows } = await openWorkbook(k.kit);
    const typed = shows('=LEN(A1');
    typeText('=LEN(A1');
    await typed;
    expect(await k.kit.saveDoc(v, false, false, true)).toEqual({ saved: true, editKept: true });
    expect(xlsxText(input)).not.toContain('LEN(');
    const closed = shows('=LEN(A1)');
    typeText(')');
    await closed;
  }, 120_000);
});
