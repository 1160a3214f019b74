import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processTree } from '../../daemon/server/pool/kit-limits.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { documentsClosed } from '../helpers/daemon.ts';
import { docxText } from '../helpers/docx.ts';
import { useEditing } from '../helpers/editing-setup.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 17, with LibreOffice: the kit is SIGKILLed during the exit save, after the last user left (bench:load at
 * load 27 saw a kit exit 0.7 s into an unload, 166 of 659 characters left only in the journal until the next start).
 * The exit save is made from the edit journal in a fresh kit and stored at once: every typed character is in the
 * host's stored file when the document has closed. The journal's bookkeeping (and a leave during a rebuild) is
 * tested with fake kits in unload-kit-crash-journal.test.ts.
 *
 * documents.exit_save_secs is 0.5 here, shorter than a rebuild in a fresh kit (lease, load, replay, save: 1-2 s at load 27): it
 * bounds a daemon's stop, not the exit save of a document whose users left while the daemon runs (bench:load lost a
 * document's 879 characters when its rebuild was given up after 20 s; unload-kit-crash-journal.test.ts).
 */
describe('fault: kit SIGKILL during the exit save (edit journal)', () => {
  const env = useEditing({ readyKits: 2, maxKits: 4, documents: { exit_save_secs: 0.5 } });

  it('every typed character is stored by the exit save made from the journal', { timeout: 180_000 }, async () => {
    const { host, daemon } = env;
    const id = 'unload-kill';
    const { client } = await env.open(host.addFile(id, `${id}.docx`, DOCX));
    let typed = '';
    const type = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const ch = String.fromCharCode(97 + (typed.length % 26));
        client.type(ch);
        typed += ch;
        await sleep(30);
      }
    };
    await type(30);
    // A journal snapshot (journal_snapshot_secs 2) holds these; the next ones are replayed after it.
    await sleep(2600);
    await type(30);
    const doc = daemon.server.documents.list().find((d) => d.key.endsWith(`/${id}`))!;
    const pid = doc.kitPid!;
    const puts = host.of('PutFile').length;
    // Every process of the kit is stopped before the user leaves, so its exit save cannot end before the kill (at
    // load 25 it once did: the kill then came after the save and the journal was not used).
    const kitTree = processTree(pid);
    for (const p of kitTree) process.kill(p, 'SIGSTOP');
    client.close();
    // The kit dies once the document is unloading: its exit save has been sent to it.
    const until = Date.now() + 60_000;
    while (doc.state !== 'unloading' && doc.state !== 'closed' && Date.now() < until) await new Promise((r) => setImmediate(r));
    expect(doc.state).toBe('unloading');
    const killedAt = Date.now();
    for (const p of kitTree) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // Already ended with the process above it (bubblewrap's --die-with-parent).
      }
    }
    expect(await documentsClosed(daemon.server, 150_000)).toBe(true);
    const ms = Date.now() - killedAt;
    const stored = docxText(host.files.get(id)!.bytes);
    expect(stored.startsWith(typed), JSON.stringify({ stored: stored.slice(0, 120), typed })).toBe(true);
    const put = host.of('PutFile').slice(puts);
    expect(put).toHaveLength(1);
    expect(put[0]!.headers['x-ode-wopi-isexitsave']).toBe('true');
    const line = daemon.logBuffer.recent(2000, 'warn').find((l) => l.msg.startsWith('the kit died during the unload: the exit save was made'));
    expect(line?.fields.stored).toBe(true);
    console.log(
      `kit SIGKILL during the exit save -> stored from the journal in ${ms} ms (${typed.length} characters, ${String(line?.fields.replayed)} inputs replayed)`,
    );
  });
});
