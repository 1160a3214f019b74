/**
 * Rebuilds an edit journal (journal-store.ts) into a saved file in a kit of its own, with no user's view: its
 * snapshot is opened, a view is made for each journaled view, the cursors are put back, the input replayed, and
 * `.uno:Save` writes the file (docs/reliability.md, "Kit crash and daemon kill: the edit journal"). Used by a
 * start for the journals a previous daemon left (recovery.ts) and by a document whose kit died while it was being
 * unloaded, whose exit save is then made from its journal (edit-document.ts `unload`).
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KitSettingsManifest } from '../../protocol/kit.ts';
import { OdeError } from '../errors.ts';
import { replay, settled } from './document-journal.ts';
import type { EditingKit, EditingKitPool } from './editing-kit.ts';
import type { StoredJournal } from './journal-store.ts';

/** Limits of one rebuild: the kit's load and conversion times (ms), and when the whole rebuild must be done. */
export interface RebuildOptions {
  loadMs: number;
  convertMs: number;
  /** The settings of the document's first view for the kit's profile (kit.md, "Settings"), if any. */
  settings?: KitSettingsManifest;
  /**
   * ms since the epoch: past it the rebuild is given up (the kit is retired, mid-load or mid-replay) and the call
   * throws OdeError `timeout`; none: no limit beyond the kit's own.
   */
  deadline?: number;
}

/**
 * Opens `j`'s snapshot in a kit leased from `pool`, replays its input, saves, and returns the saved file's bytes.
 * The kit is always closed and retired afterwards.
 * @throws the pool's and the kit's errors (no_kit, load_failed, kit_crashed, ...); OdeError `timeout` past
 * `opts.deadline`.
 */
export async function rebuildJournalFile(pool: EditingKitPool, j: StoredJournal, opts: RebuildOptions): Promise<Uint8Array> {
  return (await rebuild(pool, j, opts, false)).bytes;
}

/**
 * `rebuildJournalFile`, but saving only when the replayed input changed the document (`.uno:Save` with
 * DontSaveIfUnmodified; a cell's typed text is entered first): `changed` false when it changed nothing, `bytes` then
 * being the snapshot's (a journal of clicks and sheet switches, issue 17: nothing to upload when the snapshot is the
 * stored file). @throws as `rebuildJournalFile`.
 */
export function rebuildJournalChanges(pool: EditingKitPool, j: StoredJournal, opts: RebuildOptions): Promise<{ bytes: Uint8Array; changed: boolean }> {
  return rebuild(pool, j, opts, true);
}

async function rebuild(pool: EditingKitPool, j: StoredJournal, opts: RebuildOptions, onlyChanges: boolean): Promise<{ bytes: Uint8Array; changed: boolean }> {
  let kit: EditingKit | undefined;
  let givenUp = false;
  const work = async (): Promise<{ bytes: Uint8Array; changed: boolean }> => {
    const leased = await pool.leaseEditingKit(opts.settings ? { settings: opts.settings } : undefined);
    if (givenUp) {
      pool.retireKit(leased);
      throw new OdeError('timeout', 'the rebuild was given up');
    }
    kit = leased;
    try {
      const input = join(leased.dir, `document.${j.meta.format}`);
      copyFileSync(j.snapshotPath, input);
      const [first, ...others] = j.meta.views;
      const opened = await leased.open({ input, lang: first?.lang, timezone: first?.timezone }, { loadMs: opts.loadMs, convertMs: opts.convertMs });
      const views = new Map<number, number>();
      if (first) views.set(first.key, opened.viewId);
      for (const v of others)
        views.set(v.key, (await leased.createView({ userName: v.userName, userId: v.userId, lang: v.lang, timezone: v.timezone })).viewId);
      await replay(leased, () => j.entries, views, j.snapshot.cursors);
      await settled(leased);
      const { saved } = await leased.saveDoc(opened.viewId, onlyChanges);
      return { bytes: readFileSync(input), changed: saved };
    } finally {
      await leased.closeDoc().catch(() => undefined);
      pool.retireKit(leased);
    }
  };
  const running = work();
  const { deadline } = opts;
  if (deadline === undefined) return running;
  const secs = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        givenUp = true;
        // Retiring the kit ends its requests: the work above fails and is ignored.
        if (kit) pool.retireKit(kit);
        reject(new OdeError('timeout', `the document could not be rebuilt from its edit journal within ${secs} s`));
      },
      Math.max(0, deadline - Date.now()),
    );
  });
  running.catch(() => undefined);
  try {
    return await Promise.race([running, late]);
  } finally {
    clearTimeout(timer);
  }
}
