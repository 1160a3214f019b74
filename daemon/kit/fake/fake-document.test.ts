import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { FAKE_KIT_TEXT_PART } from '../../protocol/kit.ts';
import { LOK_DOCTYPE_SPREADSHEET, LOK_DOCTYPE_TEXT } from '../../protocol/lok-enums.ts';
import { FakeDocument } from './fake-document.ts';

const CORPUS = '/work/shared/corpus';
const dir = mkdtempSync(join(tmpdir(), 'ode-fake-document-'));
/** A copy of a corpus file in the temp dir (the fake keeps the path it opened). */
const copy = (rel: string, name: string) => {
  const path = join(dir, name);
  writeFileSync(path, readFileSync(join(CORPUS, rel)));
  return path;
};
/** The local file headers of a zip in order (the name of each entry and its compression method). */
const entries = (zip: Uint8Array) => {
  const out: Array<{ name: string; method: number }> = [];
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = 0; view.getUint32(at, true) === 0x04034b50; ) {
    const nameLength = view.getUint16(at + 26, true);
    out.push({ name: strFromU8(zip.subarray(at + 30, at + 30 + nameLength)), method: view.getUint16(at + 8, true) });
    at += 30 + nameLength + view.getUint16(at + 28, true) + view.getUint32(at + 18, true);
  }
  return out;
};

describe('the fake kit document (kit.md, "The fake kit")', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the package, adds the typed text as one part, and opens it again with that text', () => {
    const path = copy('properties/documentProperties.docx', 'a.docx');
    const original = unzipSync(readFileSync(path));
    const doc = new FakeDocument(path);
    expect(doc.docType).toBe(LOK_DOCTYPE_TEXT);
    const view = doc.addView('Ada', false);
    for (const ch of 'Helo') doc.input(view, { type: 'key', event: 'input', charCode: ch.codePointAt(0)!, keyCode: 0 });
    doc.input(view, { type: 'key', event: 'input', charCode: 8, keyCode: 0 });
    doc.input(view, { type: 'textInput', text: 'lo world' });
    expect(doc.modified).toBe(true);
    writeFileSync(path, doc.bytes());
    const saved = unzipSync(readFileSync(path));
    expect(strFromU8(saved[FAKE_KIT_TEXT_PART]!)).toBe('Hello world');
    for (const [name, data] of Object.entries(original)) expect(Buffer.from(saved[name]!).equals(Buffer.from(data)), name).toBe(true);
    expect(new FakeDocument(path).text).toBe('Hello world');
  });

  it('a read-only view changes nothing; an ODF package keeps its mimetype first and stored', () => {
    const path = copy('properties/meta.odt', 'b.odt');
    const doc = new FakeDocument(path);
    const ro = doc.addView('Viewer', true);
    expect(doc.input(ro, { type: 'textInput', text: 'no' })).toBe(false);
    expect(doc.paste(ro, 'text/plain;charset=utf-8', new TextEncoder().encode('no'))).toBe(false);
    expect(doc.modified).toBe(false);
    const rw = doc.addView('Ada', false);
    expect(rw).toBe(ro + 1);
    expect(doc.paste(rw, 'text/plain;charset=utf-8', new TextEncoder().encode('pasted'))).toBe(true);
    expect(doc.paste(rw, 'text/html', new TextEncoder().encode('<p>x</p>'))).toBe(false);
    const first = entries(doc.bytes())[0];
    expect(first).toEqual({ name: 'mimetype', method: 0 });
    expect(new FakeDocument(copy('properties/meta.odt', 'c.ods')).docType).toBe(LOK_DOCTYPE_SPREADSHEET);
  });
});
