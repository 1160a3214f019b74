import { readFileSync } from 'node:fs';
import { XMLSerializer } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { LARGE_PART, ZipPackage } from '../package/zip-package.ts';
import { NS, parseXml } from './dom.ts';
import { PIECE, contentEnd, parseFragments, streamXml, type StreamHandlers, type XmlSource } from './stream.ts';

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

  it('dropByName passes over elements right after a tag, by name, unread; others it cannot pass over are read as usual', () => {
    const doc =
      '<a:r xmlns:a="urn:a" xmlns:q="urn:a"><a:f k="x>y"><a:g/>&bad;</a:f><q:f/><a:f xmlns:z="urn:z"/><a:k>t</a:k>' +
      ' <a:f/><a:k/><a:f>a<!-- </a:f> --></a:f></a:r>';
    const asked: string[] = [];
    const opened: string[] = [];
    streamXml(doc, 'd.xml', {
      onOpen: (e) => {
        opened.push(`${e.local}@${e.depth}`);
        return e.local === 'f' ? 'skip' : undefined;
      },
      dropByName: (ns, local, depth) => {
        asked.push(`${ns}|${local}@${depth}`);
        return ns === 'urn:a' && local === 'f';
      },
    });
    // passed over: the first a:f (a '>' in a value, an undefined entity inside: not read) and q:f (same namespace).
    // Read as usual, skipped by onOpen: the one declaring a namespace, the one after text, the one whose content
    // holds a comment
    expect(opened).toEqual(['r@0', 'f@1', 'k@1', 'f@1', 'k@1', 'f@1']);
    expect(asked).toEqual(['urn:a|f@1', 'urn:a|f@1', 'urn:a|f@1', 'urn:a|k@1', 'urn:a|k@1', 'urn:a|f@1']);
    // bytes: the same events
    const fromBytes: string[] = [];
    streamXml(new TextEncoder().encode(doc), 'd.xml', {
      onOpen: (e) => (fromBytes.push(`${e.local}@${e.depth}`), e.local === 'f' ? 'skip' : undefined),
      dropByName: (ns, local) => ns === 'urn:a' && local === 'f',
    });
    expect(fromBytes).toEqual(opened);
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

  it('finds the end tag of skipped content, or says it cannot tell without parsing', () => {
    const t = '<a:x k="1">t<a:y/><b:x>u</b:x></a:x ><a:x>';
    const from = t.indexOf('>') + 1;
    expect(contentEnd(t, from, 'a:x')).toBe(t.indexOf('</a:x'));
    expect(contentEnd(t, t.indexOf('<b:x>') + 5, 'b:x')).toBe(t.indexOf('</b:x>'));
    expect(contentEnd(t, from, 'b:x')).toBe(-2);
    expect(contentEnd('<a>t<!-- </a> --></a>', 3, 'a')).toBe(-2);
    expect(contentEnd('<a><![CDATA[</a>]]></a>', 3, 'a')).toBe(-2);
    expect(contentEnd('<a><?pi </a>?></a>', 3, 'a')).toBe(-2);
    expect(contentEnd('<a><a></a></a>', 3, 'a')).toBe(-2);
    expect(contentEnd('<a><ab></ab><a/></a>', 3, 'a')).toBe(-2);
    expect(contentEnd('<a><ab></ab></a>', 3, 'a')).toBe(12);
    expect(contentEnd('<a><b>', 3, 'a')).toBe(-1);
  });

  /** Every event of a stream, with the depth of each, skipping what `skip` names. */
  function events(source: XmlSource, skip?: (local: string, depth: number) => boolean): string[] {
    const out: string[] = [];
    const handlers: StreamHandlers = {
      onOpen: (e) => {
        out.push(
          `<${e.ns}|${e.local}@${e.depth}${e
            .attrs()
            .map((a) => ` ${a.namespaceURI}|${a.localName}=${a.value}`)
            .join('')}`,
        );
        return skip?.(e.local, e.depth) ? 'skip' : undefined;
      },
      onClose: (_ns, local, d) => out.push(`</${local}@${d}`),
      onText: (t, d) => out.push(`"${t}"@${d}`),
    };
    streamXml(source, 'x.xml', handlers);
    return out;
  }

  /** The events of `all` (a stream without skips) less those inside elements `skip` names, as a skipping stream must report. */
  function withoutSkipped(all: string[], skip: (local: string, depth: number) => boolean): string[] {
    const out: string[] = [];
    let inside = -1;
    for (const ev of all) {
      const m = /^<[^|]*\|([^@]+)@(\d+)/.exec(ev);
      const close = /^<\/([^@]+)@(\d+)$/.exec(ev);
      const depth = Number(m?.[2] ?? close?.[2] ?? /@(\d+)$/.exec(ev)?.[1]);
      if (inside >= 0) {
        if (close && depth === inside) inside = -1;
        else continue;
        continue;
      }
      out.push(ev);
      if (m && skip(m[1]!, depth)) inside = depth;
    }
    return out;
  }

  it('reads large parts from their bytes in pieces as from their text, skipped content included (corpus parts over LARGE_PART)', () => {
    const parts: Array<[string, string]> = [
      ['presentations/test_custom_formats.odp', 'styles.xml'],
      ['presentations/LibreOfficeImpress_odp_1.3.odp', 'styles.xml'],
      ['tracked-changes/RA001-Tracked-Revisions-01.docx', 'word/document.xml'],
      ['tracked-changes/RA001-Tracked-Revisions-01.docx', 'word/settings.xml'],
    ];
    for (const [file, part] of parts) {
      const pkg = ZipPackage.open(corpus(file));
      const bytes = pkg.bytesOf(part)!;
      expect(bytes.length).toBeGreaterThan(LARGE_PART);
      expect(pkg.sourceOf(part)).toBe(bytes);
      const text = pkg.textOf(part)!;
      const all = events(text);
      let skippedSome = false;
      expect(events(bytes)).toEqual(all);
      // skipped at several depths: the content of elements within a piece and across the end of one (PIECE bytes)
      for (const skip of [(_l: string, d: number) => d === 1, (_l: string, d: number) => d === 2, (l: string) => /master-page|style$|^p$|^tbl$|^r$/.test(l)]) {
        const want = withoutSkipped(all, skip);
        skippedSome ||= want.length < all.length;
        expect(events(text, skip)).toEqual(want);
        expect(events(bytes, skip)).toEqual(want);
      }
      expect(skippedSome).toBe(true);
    }
    expect(PIECE).toBeLessThan(LARGE_PART);
  });

  it('checks what it reads from bytes as from text; skipped content is not parsed', () => {
    const pad = `<pad>${'x'.repeat(PIECE)}</pad>`;
    const enc = (s: string) => new TextEncoder().encode(s);
    for (const bad of [`<r>${pad}<a></b></r>`, `<r>${pad}<a x="1" x="2"/></r>`, `<r>${pad}<p:a/></r>`, `<r>${pad}`]) {
      const fromText = (() => {
        try {
          streamXml(bad, 'bad.xml', {});
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(fromText).toMatch(/bad\.xml is not well-formed/);
      expect(() => streamXml(enc(bad), 'bad.xml', {})).toThrow(fromText);
    }
    // a skipped element's content is passed over (its end tag found by name), well-formed or not
    const broken = `<r><s>${pad}<a></b></s><t/></r>`;
    expect(() => streamXml(broken, 'x.xml', {})).toThrow(/not well-formed/);
    for (const src of [broken, enc(broken)]) expect(events(src, (l) => l === 's')).toEqual(['<|r@0', '<|s@1', '<|t@1', '</t@1', '</r@0']);
    // but not when a comment could hide the end tag: then it is parsed (unreported) and checked
    expect(() => streamXml(`<r><s><!-- </s> --><a></b></s></r>`, 'x.xml', { onOpen: (e) => (e.local === 's' ? 'skip' : undefined) })).toThrow(
      /not well-formed/,
    );
  });
});
