import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OdeError } from '../../daemon/server/errors.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

const DOCX = join(CORPUS, 'properties/documentProperties.docx');

/**
 * Issue 17 (new-user try): after a normal close the log said "The LibreOffice process stopped unexpectedly (exit code
 * 0)": a request still waiting (a tile being painted) when the closed document's kit stopped as asked was failed as a
 * crash, and the view's session warned about it. A kit asked to stop ends such requests with `no_kit` and a message
 * that says so, and logs no "kit exited unexpectedly"; a kit that dies unasked still fails them as `kit_crashed`.
 * Fake kits (kit.md, "The fake kit"): a slow `open` is the request waiting.
 */
describe('a kit asked to stop is not a crash', () => {
  let daemon: TestDaemon | undefined;
  afterAll(async () => {
    await daemon?.stop();
  });

  const waitingOpen = async () => {
    const kit = await daemon!.server.pool.leaseEditingKit();
    const input = join(kit.dir, 'document.docx');
    copyFileSync(DOCX, input);
    const opening = kit.open({ input }, { loadMs: 60_000, convertMs: 60_000 }).then(
      () => undefined,
      (e: unknown) => e as OdeError,
    );
    // The kit has the request (the fake kit reads its control file at the open).
    await new Promise((r) => setTimeout(r, 500));
    return { kit, opening };
  };

  it('a request waiting when the kit is retired ends with no_kit, quietly; one waiting when it dies is kit_crashed', { timeout: 120_000 }, async () => {
    daemon = await startDaemon({ kits: { prespawn: 1, max: 3 } }, 1, 0, { fakeKits: true });
    daemon.fakeKit({ openDelayMs: 20_000 });

    const asked = await waitingOpen();
    daemon.server.pool.retireKit(asked.kit);
    const e = await asked.opening;
    expect(e).toBeInstanceOf(OdeError);
    expect(e?.code).toBe('no_kit');
    expect(e?.message).not.toMatch(/unexpectedly/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(daemon.logBuffer.recent(2000, 'warn').filter((l) => /unexpectedly/.test(l.msg) || /unexpectedly/.test(JSON.stringify(l.fields)))).toEqual([]);

    const died = await waitingOpen();
    process.kill(died.kit.pid!, 'SIGKILL');
    const crash = await died.opening;
    expect(crash?.code).toBe('kit_crashed');
    expect(crash?.message).toMatch(/stopped unexpectedly/);
    daemon.server.pool.retireKit(died.kit);
  });
});
