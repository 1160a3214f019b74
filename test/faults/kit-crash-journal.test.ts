import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import type { EditorClient } from '../helpers/editor-client.ts';
import { useEditing } from '../helpers/editing-setup.ts';
import { fakeKitText } from '../helpers/fake-kit.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RUNS = 3;

/**
 * Issue 17, item 5, the journal's bookkeeping with fake kits (daemon/protocol/kit.md, "The fake kit"): a kit
 * SIGKILLed while a user types; the document is rebuilt in a fresh kit (snapshot + replayed input), the view gets
 * `reloaded` and goes on; every key typed before, during and after the crash is in the stored file, once and in
 * order. Three runs; the time from SIGKILL to `reloaded` is printed. The same with LibreOffice (two views, its posted
 * keys): kit-crash.test.ts.
 */
describe('fault: kit SIGKILL while typing, the edit journal (fake kits)', () => {
  const env = useEditing({ readyKits: 2, maxKits: 4, fakeKits: true });

  /** Types `n` characters of the run's alphabet one every `gapMs`, appending them to `typed.text`. */
  const typeSlowly = async (client: EditorClient, typed: { text: string }, n: number, gapMs = 25) => {
    for (let i = 0; i < n; i++) {
      const ch = String.fromCharCode(97 + (typed.text.length % 26));
      client.type(ch);
      typed.text += ch;
      await sleep(gapMs);
    }
  };

  it(`loses no keystroke in ${RUNS} runs, and the view types again after the rebuild`, { timeout: 240_000 }, async () => {
    const { host, daemon } = env;
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const id = `kc${run}`;
      const { client } = await env.open(host.addFile(id, `${id}.docx`, DOCX));
      const typed = { text: '' };
      // Before the snapshot (journal_snapshot_secs 2): replayed from the snapshot after it was taken.
      await typeSlowly(client, typed, 30);
      await sleep(run === 0 ? 300 : 2600);
      const doc = daemon.server.documents.list().find((d) => d.key.endsWith(`/${id}`))!;
      const pid = doc.kitPid!;
      expect(pid).toBeGreaterThan(0);
      const from = client.messages.length;
      // Keys keep coming while the kit dies and while it is rebuilt.
      const typing = typeSlowly(client, typed, 60);
      await sleep(500);
      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      await client.next('reloaded', () => true, 60_000, from);
      times.push(Date.now() - killedAt);
      await typing;
      expect(doc.kitPid).not.toBe(pid);
      await typeSlowly(client, typed, 20);
      await sleep(400);
      const before = client.messages.length;
      client.send({ type: 'save' });
      const saved = await client.next('saved', () => true, 60_000, before);
      expect(saved.ok).toBe(true);
      // Every key once and in order: the stored text is exactly what was typed (the fake kit's document starts empty).
      expect(fakeKitText(host.files.get(id)!.bytes)).toBe(typed.text);
      expect(client.closeCode).toBeUndefined();
      // The document unloads and gives its kit back: each run starts with the pool as the first did.
      client.close();
      await sleep(1500);
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`kit crash -> typing again (ms): runs ${times.join(', ')}; median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}`);
  });
});
