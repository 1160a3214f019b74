import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

// A 16-slide, 612 kB deck: its conversion takes long enough (about 1 s) to be caught in flight.
const slowDeck = join(CORPUS, 'presentations/aascu.org_hbcu_leadershipsummit_cooper_.pptx');
const small = join(CORPUS, 'broken/empty.docx');

async function until(cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the pool survives overload, crashes and hangs', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({ kits: { prespawn: 1, convert_concurrency: 1 }, limits: { queue: 0 } });
  });
  afterAll(async () => daemon?.stop());

  it('queue overflow: 429 queue_full with Retry-After while a conversion runs', async () => {
    const first = postConvert(daemon.url, '/ode/convert-to/pdf', slowDeck);
    await until(() => daemon.server.pool.status().busy === 1);
    const second = await postConvert(daemon.url, '/ode/convert-to/pdf', small);
    expect(second.status).toBe(429);
    expect(second.error?.code).toBe('queue_full');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await first).status).toBe(200);
  });

  it('a kit killed mid-conversion fails only that request; the pool recovers', async () => {
    const inFlight = postConvert(daemon.url, '/ode/convert-to/pdf', slowDeck);
    await until(() => daemon.server.pool.status().kits.some((k) => k.leased));
    const victim = daemon.server.pool.status().kits.find((k) => k.leased)!;
    process.kill(victim.pid!, 'SIGKILL');
    const r = await inFlight;
    expect(r.status).toBe(500);
    expect(r.error?.code).toBe('kit_crashed');
    // With limits.queue 0 nothing may wait, so the next request is sent once the replacement kit is ready.
    await daemon.server.pool.waitReady(1);
    const next = await postConvert(daemon.url, '/ode/convert-to/pdf', small);
    expect(next.status).toBe(200);
    expect(daemon.server.pool.kitPids()).not.toContain(victim.pid);
  });

  it('a kit is recycled after kits.max_jobs jobs', async () => {
    await daemon.server.pool.waitReady(1);
    daemon.reconfigure({ limits: { queue: 4 }, kits: { max_jobs: 2 } });
    try {
      const first = daemon.server.pool.kitPids()[0];
      for (let i = 0; i < 3; i++) expect((await postConvert(daemon.url, '/ode/convert-to/pdf', small)).status).toBe(200);
      expect(daemon.server.pool.kitPids()).not.toContain(first);
    } finally {
      daemon.reconfigure({ limits: { queue: 0 } });
    }
  });

  it('a conversion past limits.convert_secs gets 504; the kit is replaced and nothing is left in its temp dir', async () => {
    await daemon.server.pool.waitReady(1);
    daemon.reconfigure({ limits: { queue: 0, convert_secs: 0.05 } });
    try {
      const r = await postConvert(daemon.url, '/ode/convert-to/pdf', slowDeck);
      expect(r.status).toBe(504);
      expect(r.error?.code).toBe('timeout');
    } finally {
      daemon.reconfigure({ limits: { queue: 0 } });
    }
    await daemon.server.pool.waitReady(1);
    const next = await postConvert(daemon.url, '/ode/convert-to/pdf', small);
    expect(next.status).toBe(200);
    for (const kit of daemon.server.pool.status().kits) {
      const dir = join(daemon.server.context.uploadDir, '..', 'kits', `kit-${kit.id}`, 'jobs');
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
