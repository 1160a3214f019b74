import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';
import { xlsxCellValue } from '../kit-editing/helpers.ts';

const WORKBOOK = readFileSync(join(CORPUS, 'spreadsheets/SampleSS.xlsx'));

/** Hours between two times of day (0..12), across midnight. */
const apart = (a: number, b: number) => {
  const d = Math.abs((((a - b) % 24) + 24) % 24);
  return Math.min(d, 24 - d);
};

/**
 * The browser's time zone reaches LibreOffice (editor.md `load.timezone`: the editor sends Intl's zone; the kit
 * calls setViewTimezone): two users of one workbook, in UTC+14 and UTC-11, each insert the current time
 * (`.uno:InsertCurrentTime`, Ctrl+Shift+;) and save, and the xlsx the host stores holds each user's own time of
 * day. In LibreOffice 25.2 that entry is the only thing the view's zone changes (test/kit-editing/view-timezone.test.ts,
 * docs/editing.md).
 */
describe('the time zone of the load message', () => {
  const env = useEditing({ readyKits: 1, maxKits: 2 });
  const clients: EditorClient[] = [];
  afterAll(() => {
    for (const c of clients) c.close();
  });

  it('the current time inserted by a user in Pacific/Kiritimati is UTC+14 in the stored file, by a user in Pacific/Pago_Pago UTC-11', async () => {
    const src = env.host.addFile('tz1', 'times.xlsx', WORKBOOK, {});
    const open = async (timezone: string) => {
      const r = await EditorClient.open(env.daemon.url, src, { token: env.host.token, timezone });
      clients.push(r.client);
      return r.client;
    };
    const east = await open('Pacific/Kiritimati');
    const west = await open('Pacific/Pago_Pago');

    /** Inserts the current time into `ref` as `c`, saves, and returns the stored time of day in hours. */
    const timeIn = async (c: EditorClient, ref: string) => {
      c.send({ type: 'uno', command: '.uno:GoToCell', args: JSON.stringify({ ToPoint: { type: 'string', value: ref } }) });
      c.send({ type: 'uno', command: '.uno:InsertCurrentTime' });
      await new Promise((r) => setTimeout(r, 500));
      const from = c.messages.length;
      c.send({ type: 'save' });
      expect(await c.next('saved', () => true, 60_000, from)).toMatchObject({ ok: true });
      const value = xlsxCellValue(new Uint8Array(env.host.files.get('tz1')!.bytes), ref);
      expect(value, `${ref} holds a number`).toBeTypeOf('number');
      return (((value! % 1) + 1) % 1) * 24;
    };

    const eastTime = await timeIn(east, 'AA1000');
    const westTime = await timeIn(west, 'AB1000');
    const utc = (((Date.now() / 3_600_000) % 24) + 24) % 24;
    console.log(
      `[timezone] UTC ${utc.toFixed(3)} h; stored current time inserted in Pacific/Kiritimati ${eastTime.toFixed(3)} h, in Pacific/Pago_Pago ${westTime.toFixed(3)} h`,
    );
    expect(apart(eastTime, utc + 14)).toBeLessThan(5 / 60);
    expect(apart(westTime, utc - 11)).toBeLessThan(5 / 60);
  }, 180_000);
});
