import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LOK_CALLBACK_SET_PART } from '../../daemon/protocol/lok-enums.ts';
import { LIMITS, nextCallback, stage, useKit } from './helpers.ts';

const WORKBOOK = '/work/shared/corpus/spreadsheets/SampleSS.xlsx';

/**
 * The sheet a workbook opens on (issue 15, one of the 7.4 statements retried on 25.2). The daemon's `status` says
 * part 0 and the editor then sends `setPart` with it (daemon/editor/src/calc/index.ts), because LibreOffice opens a
 * workbook on the sheet the file saved as active. LibreOffice 25.2 still does: SampleSS.xlsx names sheet 2
 * (`workbookView activeTab="1"`, ECMA-376 Part 1, 18.2.30), and the view starts there until setPart moves it.
 */
describe('kit editing: the active sheet of an opened workbook', () => {
  const k = useKit();

  it("LibreOffice 25.2 opens SampleSS.xlsx on the file's active tab (1), and setPart 0 moves the view to the first sheet", async () => {
    const workbookXml = strFromU8(unzipSync(readFileSync(WORKBOOK), { filter: (f) => f.name === 'xl/workbook.xml' })['xl/workbook.xml']);
    const activeTab = Number(/activeTab="(\d+)"/.exec(workbookXml)?.[1]);
    expect(activeTab).toBe(1);
    const opened = await k.kit.open({ input: stage(k.kit, WORKBOOK), userName: 'Ada' }, LIMITS);
    const v = opened.viewId;
    expect(opened.docType).toBe(1); // LOK_DOCTYPE_SPREADSHEET
    expect((await k.kit.docInfo(v)).part).toBe(activeTab);
    const first = nextCallback(
      k.kit,
      (viewId, type, payload) => viewId === v && type === LOK_CALLBACK_SET_PART && payload.trim() === '0',
      10_000,
      'SET_PART 0',
    );
    k.kit.sendEvent(v, { type: 'setPart', part: 0 });
    await first;
    expect((await k.kit.docInfo(v)).part).toBe(0);
  }, 120_000);
});
