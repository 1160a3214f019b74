import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { docxText } from '../helpers/docx.ts';
import { useEditing } from '../helpers/editing-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 17, item 5, with LibreOffice: a kit SIGKILLed while two users type. With the edit journal, the document is
 * rebuilt in a fresh kit (snapshot + replayed input), the views get `reloaded` and go on; every key typed before,
 * during and after the crash is in the stored file, in order at each view's cursor. The journal's bookkeeping over
 * three runs (and the time to type again) is tested with fake kits in kit-crash-journal.test.ts.
 */
describe('fault: kit SIGKILL while typing (edit journal)', () => {
  const env = useEditing({ readyKits: 2, maxKits: 4 });

  it('two views typing in two places: after the crash each goes on at its own cursor, and no key of either is lost', { timeout: 120_000 }, async () => {
    const { host, daemon } = env;
    const src = host.addFile('kc-two', 'kc-two.docx', DOCX);
    const a = (await env.open(src)).client;
    const b = (await env.open(src)).client;
    // B goes to the end of the document (Ctrl+End: vcl KEY_END 1029 | KEY_MOD1 0x2000), A stays at the start.
    b.send({ type: 'key', event: 'input', charCode: 0, keyCode: 1029 | 0x2000 });
    b.send({ type: 'key', event: 'up', charCode: 0, keyCode: 1029 | 0x2000 });
    await sleep(300);
    const ta = { text: '' };
    const tb = { text: 'Q' };
    b.type('Q');
    // Turns of 5 keys: keys of two views typed at the same instant can land at the other view's cursor in
    // LibreOffice 25.2 (posted keys run later, in whichever view is current then), with or without a crash.
    const both = async (n: number) => {
      for (let i = 0; i < n; i += 5) {
        for (const [c, t, base] of [
          [a, ta, 97],
          [b, tb, 65],
        ] as const) {
          for (let k = 0; k < 5; k++) {
            const ch = String.fromCharCode(base + (t.text.length % 26));
            c.type(ch);
            t.text += ch;
            await sleep(25);
          }
          await sleep(400);
        }
      }
    };
    await both(20);
    // A snapshot (2 s after the last input) holds these; the cursors are put back from it.
    await sleep(2600);
    await both(15);
    const doc = daemon.server.documents.list().find((d) => d.key.endsWith('/kc-two'))!;
    const from = [a.messages.length, b.messages.length];
    process.kill(doc.kitPid!, 'SIGKILL');
    await Promise.all([a.next('reloaded', () => true, 60_000, from[0]), b.next('reloaded', () => true, 60_000, from[1])]);
    await both(15);
    await sleep(400);
    const before = a.messages.length;
    a.send({ type: 'save' });
    expect((await a.next('saved', () => true, 60_000, before)).ok).toBe(true);
    const stored = docxText(host.files.get('kc-two')!.bytes);
    const seen = JSON.stringify({ stored, a: ta.text, b: tb.text });
    expect(stored.startsWith(ta.text), seen).toBe(true);
    expect(stored.endsWith(tb.text), seen).toBe(true);
    a.close();
    b.close();
  });
});
