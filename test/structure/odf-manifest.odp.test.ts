import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StructureDocument } from '../../daemon/structure/document.ts';
import { addManifestEntry, manifestEntries, removeManifestEntries } from '../../daemon/structure/package/odf-manifest.ts';
import { ZipPackage } from '../../daemon/structure/package/zip-package.ts';
import { CORPUS } from '../helpers/convert-client.ts';

/** META-INF/manifest.xml entries (ODF 1.3 Part 2, 3.2) on a real odp: listed, added, removed, written. */
describe('ODF manifest', () => {
  const open = () => StructureDocument.open(readFileSync(join(CORPUS, 'presentations/Presentation1.odp')), 'odp');

  it('lists the entries as the file has them', () => {
    const entries = manifestEntries(open());
    expect(entries[0]).toEqual({ fullPath: '/', mediaType: 'application/vnd.oasis.opendocument.presentation' });
    // an embedded text document (manifest.xml: Object 1/ is application/vnd.oasis.opendocument.text)
    expect(entries).toContainEqual({ fullPath: 'Object 1/', mediaType: 'application/vnd.oasis.opendocument.text' });
    expect(entries).toContainEqual({ fullPath: 'content.xml', mediaType: 'text/xml' });
  });

  it('adds an entry, updates an existing one, and removes a sub-document folder with everything below it', async () => {
    const doc = open();
    const before = manifestEntries(doc);
    addManifestEntry(doc, 'Pictures/new.png', 'image/png');
    addManifestEntry(doc, 'content.xml', 'text/xml');
    const folder = before.filter((e) => e.fullPath.startsWith('Object 1/')).length;
    expect(folder).toBeGreaterThan(1);
    expect(removeManifestEntries(doc, 'Object 1/')).toBe(folder);
    expect(removeManifestEntries(doc, 'no/such/part')).toBe(0);
    const saved = ZipPackage.open(await doc.save()).textOf('META-INF/manifest.xml')!;
    const after = manifestEntries(StructureDocument.open(await open().save(), 'odp'));
    expect(after).toEqual(before);
    const written = [...saved.matchAll(/manifest:full-path="([^"]+)"/g)].map((m) => m[1]);
    expect(written).toEqual([...before.filter((e) => !e.fullPath.startsWith('Object 1/')).map((e) => e.fullPath), 'Pictures/new.png']);
  });
});
