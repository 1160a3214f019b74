import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JournalStore, type JournalMeta } from './journal-store.ts';

const root = mkdtempSync(join(tmpdir(), 'ode-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const meta: JournalMeta = {
  version: 1,
  wopiSrc: 'http://127.0.0.1:1/wopi/files/a',
  fileName: 'a.docx',
  format: 'docx',
  token: 'secret-token',
  lastModifiedTime: 't0',
  views: [{ key: 1, userName: 'U', userId: 'u' }],
  createdAt: 1,
};
const key = (s: number) => ({ s, v: 1, e: { type: 'key' as const, event: 'input' as const, charCode: 96 + s, keyCode: 0 } });

describe('JournalStore (the edit journal on disk)', () => {
  it('reads back what was appended after the snapshot, ignoring a last line cut short by a kill', () => {
    const dir = join(root, 'one');
    const first = join(root, 'first.docx');
    writeFileSync(first, 'snapshot-0');
    const store = new JournalStore(dir, 10_000);
    store.create(meta, first, 0, { '1': { part: 0, rect: [1, 2, 3, 4] } });
    for (let s = 1; s <= 3; s++) store.append(key(s));
    appendFileSync(join(dir, 'events.jsonl'), '{"s":4,"v":1,"e":{"ty');
    const j = JournalStore.read(dir)!;
    expect(j.meta.token).toBe('secret-token');
    expect(j.snapshot).toEqual({ seq: 0, file: 'snapshot-0.docx', cursors: { '1': { part: 0, rect: [1, 2, 3, 4] } } });
    expect(j.entries.map((e) => e.s)).toEqual([1, 2, 3]);
    // The token is in meta.json: owner-only files.
    expect(statSync(join(dir, 'meta.json')).mode & 0o077).toBe(0);
    expect(statSync(join(dir, 'events.jsonl')).mode & 0o077).toBe(0);
    store.close();
  });

  it('a newer snapshot replaces the older one and drops the input it holds; remove deletes the folder', () => {
    const dir = join(root, 'two');
    const first = join(root, 'first2.docx');
    const second = join(root, 'second.docx');
    writeFileSync(first, 'snapshot-0');
    writeFileSync(second, 'snapshot-2');
    const store = new JournalStore(dir, 10_000);
    store.create(meta, first, 0, {});
    for (let s = 1; s <= 3; s++) store.append(key(s));
    store.replaceSnapshot(second, 2, 'docx', {}, [key(3)]);
    store.append(key(4));
    const j = JournalStore.read(dir)!;
    expect(j.snapshot.seq).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['events.jsonl', 'meta.json', 'snapshot-2.docx', 'snapshot.json']);
    expect(j.entries.map((e) => e.s)).toEqual([3, 4]);
    store.remove();
    expect(JournalStore.list(root).includes(dir)).toBe(false);
    expect(JournalStore.read(dir)).toBeUndefined();
  });
});
