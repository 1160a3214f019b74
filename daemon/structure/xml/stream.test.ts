import { readFileSync } from 'node:fs';
import { XMLSerializer } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { ZipPackage } from '../package/zip-package.ts';
import { NS, parseXml } from './dom.ts';
import { parseFragments, streamXml } from './stream.ts';

const corpus = (f: string) => new Uint8Array(readFileSync(new URL(`../../../../shared/corpus/${f}`, import.meta.url)));
const xml = '<a:root xmlns:a="urn:a" xmlns="urn:d"><b x="1" a:y="2">t&amp;u<![CDATA[<c>]]></b><skip><b x="no"/></skip><b x="3"/></a:root>';

describe('streaming XML reads', () => {
  it("reports namespaces, depth, attributes and text in order; skip leaves out an element's content", () => {
    const seen: string[] = [];
    streamXml(xml, 'x.xml', {
      onOpen: (e) => {
        seen.push(`<${e.ns}|${e.local}@${e.depth} x=${e.attr('', 'x')} y=${e.attr('urn:a', 'y')}`);
        return e.local === 'skip' ? 'skip' : undefined;
      },
      onClose: (ns, local) => seen.push(`</${local}`),
      onText: (t) => seen.push(`"${t}"`),
    });
    expect(seen).toEqual([
      '<urn:a|root@0 x=undefined y=undefined',
      '<urn:d|b@1 x=1 y=2',
      '"t&u"',
      '"<c>"',
      '</b',
      '<urn:d|skip@1 x=undefined y=undefined',
      '<urn:d|b@1 x=3 y=undefined',
      '</b',
      '</root',
    ]);
    expect(() => streamXml('<a><b></a>', 'bad.xml', {})).toThrow(/bad\.xml is not well-formed/);
    const upTo: string[] = [];
    streamXml(`${xml.slice(0, -'</a:root>'.length)}<unclosed>`, 'x.xml', { onOpen: (e) => (upTo.push(e.local), e.local === 'skip' ? 'stop' : undefined) });
    expect(upTo).toEqual(['root', 'b', 'skip']);
  });

  it('fragments are the same elements a full parse gives (styles.xml master pages of a corpus odp)', () => {
    const text = ZipPackage.open(corpus('presentations/test_custom_formats.odp')).textOf('styles.xml')!;
    const frags = parseFragments(text, 'styles.xml', (ns, local) => ns === NS.style && local === 'master-page');
    const full = [...(parseXml(text, 'styles.xml').getElementsByTagNameNS(NS.style, 'master-page') as unknown as Iterable<import('@xmldom/xmldom').Element>)];
    expect(frags.length).toBe(full.length);
    expect(frags.length).toBeGreaterThan(0);
    const s = new XMLSerializer();
    const strip = (x: string) => x.replace(/ xmlns(:\w+)?="[^"]*"/g, '');
    frags.forEach((f, i) => {
      expect(f.namespaceURI).toBe(NS.style);
      expect(f.getAttributeNS(NS.style, 'name')).toBe(full[i].getAttributeNS(NS.style, 'name'));
      expect(strip(s.serializeToString(f))).toBe(strip(s.serializeToString(full[i])));
    });
    const self = parseFragments(xml, 'x.xml', (_ns, local) => local === 'b');
    expect(self.map((e) => e.getAttribute('x'))).toEqual(['1', 'no', '3']);
    expect(self[0].getAttributeNS('urn:a', 'y')).toBe('2');
  });
});
