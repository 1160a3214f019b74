import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileIdOf, fileNameOf, isDocumentName } from '../../daemon/server/demo-host/file-id.ts';
import { FileStore, roundTripTime, StaleTimestampError } from '../../daemon/server/demo-host/file-store.ts';
import { escapeHtml } from '../../daemon/server/demo-host/start-page.ts';
import { TokenStore } from '../../daemon/server/demo-host/tokens.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('demo host parts', () => {
  it('file ids are base64url of the name and refuse paths, hidden files and non-canonical ids', () => {
    const id = fileIdOf('Brief für Zoë.docx');
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fileNameOf(id)).toBe('Brief für Zoë.docx');
    expect(fileNameOf(fileIdOf('../etc/passwd.txt'))).toBeUndefined();
    expect(fileNameOf(fileIdOf('.ode-demo-tmp.docx'))).toBeUndefined();
    expect(fileNameOf('not base64!')).toBeUndefined();
    expect(isDocumentName('no-extension')).toBe(false);
    expect(isDocumentName('a\nb.docx')).toBe(false);
  });

  it('tokens are per user, letters and digits, and expire', () => {
    let now = 1_000_000;
    const tokens = new TokenStore(() => now);
    const a = tokens.issue('Ada Lovelace', 60);
    const b = tokens.issue('Ada Lovelace', 60);
    expect(a.token).not.toBe(b.token);
    expect(a.token).toMatch(/^[A-Za-z0-9]+$/);
    expect(a.expiresAt).toBe(1_060_000);
    expect(tokens.verify(a.token)).toEqual({ userId: 'user-ada-lovelace', userName: 'Ada Lovelace' });
    expect(tokens.verify('x')).toBeUndefined();
    now = 1_060_000;
    expect(tokens.verify(a.token)).toBeUndefined();
    expect(tokens.issue('Zoë', 1).user.userId).toBe('user-zo');
  });

  it('LastModifiedTime is the ISO 8601 round-trip form with 100 ns ticks', () => {
    expect(roundTripTime(1_795_395_724_123_456_789n)).toBe('2026-11-23T01:02:04.1234567Z');
    expect(roundTripTime(0n)).toBe('1970-01-01T00:00:00.0000000Z');
  });

  it('escapes HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });

  it('the file store writes atomically, one save at a time, and refuses a stale timestamp', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ode-store-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a.odt'), 'v1');
    const store = new FileStore(dir);
    const t1 = (await store.info('a.odt'))!.lastModifiedTime;
    // Two saves with the same known timestamp at once: the first wins, the second sees the change.
    const results = await Promise.allSettled([store.write('a.odt', Buffer.from('v2'), t1), store.write('a.odt', Buffer.from('v3'), t1)]);
    expect(results[0].status).toBe('fulfilled');
    expect(results[1].status === 'rejected' && results[1].reason instanceof StaleTimestampError).toBe(true);
    expect(readFileSync(join(dir, 'a.odt'), 'utf8')).toBe('v2');
    expect(readdirSync(dir)).toEqual(['a.odt']); // no temp files left
    expect(await store.create('a.odt', Buffer.from('copy'), { exact: false, overwrite: false })).toBe('a (2).odt');
    expect(readdirSync(dir).sort()).toEqual(['a (2).odt', 'a.odt']);
  });
});
