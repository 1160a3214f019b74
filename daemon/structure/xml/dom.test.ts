/**
 * parseXml (saxes with namespaces.ts, building @xmldom/xmldom nodes) against the parsers it stands in for:
 * @xmldom/xmldom's own DOMParser gives the same DOM (serialised, on every XML part of every corpus package), and
 * saxes's own namespace processing (`xmlns: true`) refuses the same namespace errors with the same messages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMParser } from '@xmldom/xmldom';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { ZipPackage } from '../package/zip-package.ts';
import { parseXml, serializeXml } from './dom.ts';
import { streamXml } from './stream.ts';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** xmldom's DOMParser as parseXml used it before: undefined when it reports an error. */
function xmldomParse(text: string): string | undefined {
  let failed = false;
  try {
    const doc = new DOMParser({ onError: (level) => void (level !== 'warning' && (failed = true)) }).parseFromString(text, 'text/xml');
    return failed || !doc.documentElement ? undefined : serializeXml(doc);
  } catch {
    return undefined;
  }
}

/** saxes's message for `text` with its own namespace processing, or undefined when it reads it. */
function saxesNamespaceError(text: string): string | undefined {
  try {
    new SaxesParser({ xmlns: true, position: false }).write(text).close();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('parseXml', () => {
  it('gives the DOM xmldom DOMParser gives, on every XML part of the corpus packages', () => {
    const files = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' }).filter((f) =>
      ['.docx', '.odt', '.pptx', '.odp', '.xlsx', '.ods'].includes(extname(f).toLowerCase()),
    );
    let compared = 0;
    const differences: string[] = [];
    for (const file of files) {
      let pkg: ZipPackage;
      try {
        pkg = ZipPackage.open(new Uint8Array(readFileSync(join(CORPUS, file))));
      } catch {
        continue; // the broken/ files that are no zip
      }
      for (const name of pkg.names()) {
        if (!/\.(xml|rels)$/i.test(name)) continue;
        let text: string | undefined;
        try {
          text = pkg.textOf(name);
        } catch {
          continue; // encrypted parts
        }
        const want = text === undefined ? undefined : xmldomParse(text);
        if (text === undefined || want === undefined) continue;
        compared++;
        let got: string;
        try {
          got = serializeXml(parseXml(text, name));
        } catch (e) {
          got = `error: ${(e as Error).message}`;
        }
        if (got !== want) differences.push(`${file} ${name}`);
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  }, 180_000);

  it('refuses the namespace errors saxes refuses, with its messages, as streamXml does', () => {
    const bad = [
      '<a:r/>',
      '<r xmlns:a="urn:a"><a:b/><c:d/></r>',
      '<r a:x="1"/>',
      '<r xmlns:a="urn:a" xmlns:b="urn:a" a:x="1" b:x="2"/>',
      '<r xmlns:a="urn:a"><s xmlns:b="urn:a"><t b:y="0" a:x="1" b:x="2"/></s></r>',
      '<r xmlns:a="urn:a" xmlns:b="urn:a"><t a:x="1" b:x="2" c:y="3"/></r>',
      '<r xmlns:a="urn:a" xmlns:b="urn:b"><t a:x="1" b:x="2" c:y="3"/></r>',
      '<xmlns:r/>',
      '<r xmlns:a=""/>',
      '<r xmlns:xml="urn:not-xml"/>',
      '<r xmlns="http://www.w3.org/2000/xmlns/"/>',
      '<r xmlns:p="http://www.w3.org/XML/1998/namespace"/>',
      '<r a::b="1"/>',
      '<r><?a:b data?></r>',
    ];
    for (const xml of bad) {
      const message = saxesNamespaceError(xml);
      expect(message, xml).toBeDefined();
      const escaped = message!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(() => parseXml(xml, 'bad.xml'), xml).toThrow(new RegExp(`bad\\.xml is not well-formed XML: ${escaped}`));
      expect(() => streamXml(xml, 'bad.xml', {}), xml).toThrow(new RegExp(`bad\\.xml is not well-formed XML: ${escaped}`));
    }
    const good = '<r xmlns="urn:d" xmlns:a="urn:a"><a:b a:x="1" x="2" xmlns:c="urn:c"><c:d/></a:b><e xmlns="" f="g"/></r>';
    expect(saxesNamespaceError(good)).toBeUndefined();
    // one local name in two namespaces, and two prefixes for one namespace on different names, are no duplicates
    for (const ok of ['<r xmlns:a="urn:a" xmlns:b="urn:b" a:x="1" b:x="2"/>', '<r xmlns:a="urn:a"><s xmlns:b="urn:a" a:x="1" b:y="2"/></r>']) {
      expect(saxesNamespaceError(ok)).toBeUndefined();
      expect(() => streamXml(ok, 'ok.xml', {})).not.toThrow();
    }
    const root = parseXml(good, 'good.xml').documentElement!;
    expect([root.namespaceURI, root.localName]).toEqual(['urn:d', 'r']);
    const b = root.firstChild as import('@xmldom/xmldom').Element;
    expect([
      b.namespaceURI,
      b.getAttributeNS('urn:a', 'x'),
      b.getAttributeNS(null, 'x'),
      (b.firstChild as import('@xmldom/xmldom').Element).namespaceURI,
    ]).toEqual(['urn:a', '1', '2', 'urn:c']);
    expect((b.nextSibling as import('@xmldom/xmldom').Element).namespaceURI).toBeNull();
  });
});
