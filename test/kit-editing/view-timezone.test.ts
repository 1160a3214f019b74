import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VclKeyCode } from '../../daemon/protocol/lok-enums.ts';
import { hoursAheadOfUtc, LIMITS, sleep, stage, useKit, xlsxCellValue } from './helpers.ts';

const WORKBOOK = '/work/shared/corpus/spreadsheets/SampleSS.xlsx';
/** UTC+14 and UTC-11 all year (no daylight saving time): 25 hours apart, so never the same day. */
const EAST = 'Pacific/Kiritimati';
const WEST = 'Pacific/Pago_Pago';

/** Hours between two times of day (0..12), across midnight. */
const apart = (a: number, b: number) => {
  const d = Math.abs((((a - b) % 24) + 24) % 24);
  return Math.min(d, 24 - d);
};

/** The time of day, in hours, of a spreadsheet serial date-time. */
const timeOfDay = (serial: number) => (((serial % 1) + 1) % 1) * 24;

/**
 * setViewTimezone (LibreOfficeKit 25.2; view-rights.ts): each view's time zone comes from its browser (editor.md
 * `load.timezone`). In LibreOffice 25.2 the one place that reads it is Calc's Insert Current Time / Date
 * (`.uno:InsertCurrentTime`, `.uno:InsertCurrentDate`, Ctrl+Shift+; and Ctrl+;: ScViewFunc::InsertCurrentTime sets
 * the process time zone to the view's for that entry, then back); no other library of 25.2.3 calls
 * comphelper::LibreOfficeKit::setTimezone or SfxLokHelper::getViewTimezone (checked with nm/objdump on
 * /usr/lib/libreoffice/program, docs/editing.md). So =NOW() keeps the kit's own zone, while the time inserted in a
 * view is that view's. Read back from the saved xlsx.
 */
describe('view time zones in a spreadsheet', () => {
  const k = useKit();

  it("Insert Current Time in a view gives that view's time (UTC+14 in one, UTC-11 in the other); =NOW() keeps the kit's zone", async () => {
    const input = stage(k.kit, WORKBOOK);
    const opened = await k.kit.open({ input, userName: 'Ada', timezone: EAST }, LIMITS);
    const east = opened.viewId;
    const { viewId: west } = await k.kit.createView({ userName: 'Bob', userId: 'bob', timezone: WEST });
    const goTo = (view: number, ref: string) =>
      k.kit.sendEvent(view, { type: 'uno', command: '.uno:GoToCell', args: JSON.stringify({ ToPoint: { type: 'string', value: ref } }) });

    goTo(east, 'AA1000');
    k.kit.sendEvent(east, { type: 'uno', command: '.uno:InsertCurrentTime' });
    goTo(west, 'AB1000');
    k.kit.sendEvent(west, { type: 'uno', command: '.uno:InsertCurrentTime' });
    // =NOW() typed and confirmed with Enter, as a user does, in the eastern view.
    goTo(east, 'AC1000');
    k.kit.sendEvent(east, { type: 'textInput', text: '=NOW()' });
    k.kit.sendEvent(east, { type: 'key', event: 'input', charCode: 13, keyCode: VclKeyCode.KEY_RETURN });
    k.kit.sendEvent(east, { type: 'key', event: 'up', charCode: 13, keyCode: VclKeyCode.KEY_RETURN });
    await sleep(500);
    expect(await k.kit.saveDoc(east, false)).toEqual({ saved: true });

    const bytes = readFileSync(input);
    const utc = timeOfDay(Date.now() / 86_400_000);
    const eastTime = timeOfDay(xlsxCellValue(bytes, 'AA1000')!);
    const westTime = timeOfDay(xlsxCellValue(bytes, 'AB1000')!);
    const nowHours = hoursAheadOfUtc(xlsxCellValue(bytes, 'AC1000')!);
    // The kit runs in this process's zone (same environment): NOW() there.
    const kitOffset = -new Date().getTimezoneOffset() / 60;
    console.log(
      `[timezone] UTC ${utc.toFixed(3)} h; Insert Current Time in ${EAST}: ${eastTime.toFixed(3)} h, in ${WEST}: ${westTime.toFixed(3)} h; =NOW() in ${EAST}: ${nowHours.toFixed(3)} h from UTC (the kit's zone: ${kitOffset} h)`,
    );
    const minutes5 = 5 / 60;
    expect(apart(eastTime, utc + 14)).toBeLessThan(minutes5);
    expect(apart(westTime, utc - 11)).toBeLessThan(minutes5);
    expect(Math.abs(nowHours - kitOffset)).toBeLessThan(minutes5);
  }, 120_000);
});
