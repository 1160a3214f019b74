import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KitPool } from '../../daemon/server/pool/pool.ts';

/**
 * Opens `bytes` (an ODT) in an editing kit of `pool`, updates every link as a user does with Edit > Links >
 * Update (`.uno:UpdateAllLinks`), waits `settleMs`, and returns the document's text (exported as txt by the kit).
 */
export async function updateLinksAndRead(pool: KitPool, bytes: Uint8Array, settleMs = 2500): Promise<string> {
  const kit = await pool.leaseEditingKit();
  try {
    const input = join(kit.jobDir(), 'linked.odt');
    writeFileSync(input, bytes);
    const { viewId } = await kit.open({ input }, { loadMs: 60_000, convertMs: 60_000 });
    kit.sendEvent(viewId, { type: 'uno', command: '.uno:UpdateAllLinks' });
    await new Promise((r) => setTimeout(r, settleMs));
    const out = join(kit.dir, 'linked.txt');
    await kit.exportDoc(out, 'txt');
    return readFileSync(out, 'utf8');
  } finally {
    pool.retireKit(kit);
  }
}
