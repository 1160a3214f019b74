import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LIMITS, sleep, stage, useKit } from './helpers.ts';

const WORKBOOK = '/work/shared/corpus/spreadsheets/SampleSS.xlsx';

/** The `<f>` formula of cell `ref` in any worksheet of xlsx bytes (ECMA-376 Part 1, 18.3.1.40), or undefined. */
function xlsxFormula(xlsx: Uint8Array, ref: string): string | undefined {
  const parts = unzipSync(xlsx, { filter: (f) => /^xl\/worksheets\/[^/]+\.xml$/.test(f.name) });
  for (const bytes of Object.values(parts)) {
    const m = new RegExp(`<c r="${ref}"[^>]*>(?:<f[^>]*>([^<]*)</f>)?`).exec(strFromU8(bytes));
    if (m) return m[1];
  }
  return undefined;
}

/**
 * Formulas on the spreadsheet clipboard (issue 15, one of the 7.4 statements retried on 25.2): with 7.4 the editor
 * (daemon/editor/src/calc/clipboard.ts) read each copied cell's formula by visiting it, because LibreOffice 7.4's
 * HTML had no formulas; it now takes them from LibreOffice's HTML (1440089) and still enters pasted `data-sheets-*`
 * HTML cell by cell. LibreOffice 25.2's own HTML of a
 * copied range carries `<google-sheets-html-origin/>` and each formula cell's `data-sheets-formula` (R1C1, but no
 * `data-sheets-value`). Its HTML paste turns `data-sheets-formula` into a formula at the new place when the HTML
 * has Google Sheets' shape (`data-sheets-value` on the cells too), and pastes its own HTML as values: read back
 * from the saved xlsx.
 */
describe('kit editing: formulas in the HTML of a copied range (LibreOffice 25.2)', () => {
  const k = useKit();

  it('copy A7:D7 of SampleSS.xlsx (D7 = SUM(A7:C7)): the HTML has data-sheets-formula; Google-Sheets-shaped HTML pastes a formula, its own HTML values', async () => {
    const input = stage(k.kit, WORKBOOK);
    const opened = await k.kit.open({ input, userName: 'Ada' }, LIMITS);
    const v = opened.viewId;
    const goTo = (ref: string) =>
      k.kit.sendEvent(v, { type: 'uno', command: '.uno:GoToCell', args: JSON.stringify({ ToPoint: { type: 'string', value: ref } }) });
    k.kit.sendEvent(v, { type: 'setPart', part: 1 });
    goTo('A7:D7');
    await sleep(500);
    const [html] = await k.kit.clipboardGet(v, ['text/html']);
    const text = Buffer.from(html.data).toString('utf8');
    const attrs = text.match(/data-sheets-[a-z]+="[^"]*"/g) ?? [];
    console.log(`[calc clipboard] ${html.mimeType}, ${text.length} chars; data-sheets attributes: ${attrs.join(' ')}`);
    expect(text).toContain('<google-sheets-html-origin');
    expect(attrs).toContain('data-sheets-formula="=SUM(RC[-3]:RC[-1])"');
    // Its own HTML pasted back gives values only; HTML shaped as Google Sheets writes it (each cell's
    // data-sheets-value, the formula cell's data-sheets-formula) gives the formula at the new place.
    goTo('A12');
    await sleep(300);
    expect(await k.kit.paste(v, 'text/html', html.data)).toBe(true);
    await sleep(300);
    const sheets = (n: number) => `{&quot;1&quot;:3,&quot;3&quot;:${n}}`;
    const google = `<meta charset="utf-8"><google-sheets-html-origin><table data-sheets-root="1"><tbody><tr><td data-sheets-value="${sheets(5)}">5</td><td data-sheets-value="${sheets(10)}" data-sheets-formula="=R[0]C[-1]*2">10</td></tr></tbody></table>`;
    goTo('A15');
    await sleep(300);
    expect(await k.kit.paste(v, 'text/html', Buffer.from(google))).toBe(true);
    await sleep(500);
    expect(await k.kit.saveDoc(v, false)).toEqual({ saved: true });
    const saved = readFileSync(input);
    expect(xlsxFormula(saved, 'D7')).toBe('SUM(A7:C7)');
    expect(xlsxFormula(saved, 'D12')).toBeUndefined();
    expect(xlsxFormula(saved, 'B15')).toBe('A15*2');
  }, 120_000);
});
