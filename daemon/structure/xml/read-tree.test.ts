/**
 * The stream-built tree reads like the DOM: on every XML part of the corpus documents of the tracked-changes,
 * content-control and chart areas (and their fixtures), node by node: types, names, text, and every attribute
 * the DOM has; `getElementsByTagNameNS`, `textContent` and `domOf` agree too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Attr, Element, Node } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { ZipPackage } from '../package/zip-package.ts';
import { NS, parseXml } from './dom.ts';
import { EXTRACTION_ATTRIBUTES } from './extraction-attributes.ts';
import { buildReadTree, domOf, domsOf, readChildren, type ReadElement, type ReadNode } from './read-tree.ts';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/structure/fixtures/', import.meta.url));

/** Documents of the areas that read parts through trees: corpus folders and fixture folders. */
export function areaDocuments(): string[] {
  const docs = ['tracked-changes', 'content-controls', 'charts'].flatMap((f) => readdirSync(join(CORPUS, f)).map((n) => join(CORPUS, f, n)));
  const fixtures = ['track-changes', 'content-controls', 'charts'].flatMap((f) => readdirSync(join(FIXTURES, f)).map((n) => join(FIXTURES, f, n)));
  const decks = ['Presentation1.odp', 'aascu.org_hbcu_leadershipsummit_cooper_.pptx'].map((n) => join(CORPUS, 'presentations', n));
  return [...docs, ...fixtures, ...decks].filter((p) => ['.docx', '.odt', '.pptx', '.odp'].includes(extname(p)));
}

/** DOM children as the tree has them: comments and processing instructions left out, CDATA as text. */
function domChildren(el: Element): Node[] {
  const out: Node[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 || n.nodeType === 3 || n.nodeType === 4) out.push(n);
  return out;
}

/** Differences between a DOM element and a tree element, recursively, as readable lines (none when equal). */
function compare(dom: Element, tree: ReadElement, where: string, out: string[]): void {
  const differ = (what: string, got: unknown, want: unknown) => got !== want && out.push(`${where} ${what}: ${String(got)} != ${String(want)}`);
  differ('name', `${tree.namespaceURI}|${tree.localName}`, `${dom.namespaceURI ?? ''}|${dom.localName}`);
  for (let i = 0; i < dom.attributes.length; i++) {
    const a = dom.attributes[i] as Attr;
    differ(`@${a.name}`, tree.getAttributeNS(a.namespaceURI, a.localName!), a.value);
    if (!a.name.includes(':')) differ(`@${a.name} by name`, tree.getAttribute(a.name), a.value);
  }
  differ('missing attribute', tree.getAttributeNS('urn:none', 'none'), null);
  const kids = domChildren(dom);
  const treeKids: ReadNode[] = [];
  for (let n = tree.firstChild; n; n = n.nextSibling) treeKids.push(n);
  differ('children', treeKids.length, kids.length);
  kids.forEach((k, i) => {
    const t = treeKids[i];
    if (!t) return;
    differ('parent', t.parentNode, tree);
    if (k.nodeType === 1) compare(k as Element, t as ReadElement, `${where}/${(k as Element).localName}[${i}]`, out);
    else differ(`text ${i}`, t.nodeValue, k.nodeValue);
  });
}

/** A tree keeping the extraction attributes: those values as the DOM has them; any other attribute throws. */
function compareKept(dom: Element, tree: ReadElement, where: string, out: string[]): void {
  const kept = EXTRACTION_ATTRIBUTES.get(dom.namespaceURI ?? '')?.get(dom.localName!) ?? [];
  for (const [ns, local] of kept) if (tree.getAttributeNS(ns, local) !== dom.getAttributeNS(ns, local)) out.push(`${where}: kept {${ns}}${local}`);
  let threw = false;
  try {
    tree.getAttributeNS('urn:none', 'none');
  } catch {
    threw = true;
  }
  if (!threw) out.push(`${where}: an attribute not kept did not throw`);
  const kids = domChildren(dom).filter((k) => k.nodeType === 1) as Element[];
  const treeKids: ReadElement[] = [];
  for (let n = tree.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) treeKids.push(n as ReadElement);
  kids.forEach((k, i) => treeKids[i] && compareKept(k, treeKids[i]!, `${where}/${k.localName}[${i}]`, out));
}

describe('stream-built read trees', () => {
  it('match the DOM on every XML part of the area documents', () => {
    let parts = 0;
    const differences: string[] = [];
    for (const path of areaDocuments()) {
      const pkg = ZipPackage.open(new Uint8Array(readFileSync(path)));
      for (const name of pkg.names()) {
        if (!/\.(xml|rels)$/.test(name)) continue;
        const text = pkg.textOf(name)!;
        let dom: Element;
        try {
          dom = parseXml(text, name).documentElement!;
        } catch {
          // an empty part (Configurations2/accelerator/current.xml): unreadable either way
          expect(() => buildReadTree(text, name)).toThrow(/not well-formed/);
          continue;
        }
        const tree = buildReadTree(text, name);
        const where = `${path.split('/').pop()}:${name}`;
        compare(dom, tree, where, differences);
        compareKept(dom, buildReadTree(text, name, EXTRACTION_ATTRIBUTES), where, differences);
        if (tree.textContent !== dom.textContent) differences.push(`${where}: textContent`);
        parts++;
      }
    }
    expect(differences.slice(0, 20)).toEqual([]);
    expect(parts).toBeGreaterThan(300);
  });

  it('find descendants by name (and *) in document order, and give DOM elements for serialising', () => {
    const xml =
      '<a:root xmlns:a="urn:a" xmlns:w="urn:w" xml:id="r"><w:x w:v="1"><w:y/><a:y/><w:x w:v="n"/></w:x><w:y w:v="2"><w:x w:v="3"/></w:y><!--c--><w:x w:v="4"/></a:root>';
    const tree = buildReadTree(xml, 'x.xml');
    const dom = parseXml(xml, 'x.xml').documentElement!;
    const names = (list: ArrayLike<{ localName: string | null }>) => Array.from(list, (e) => e.localName);
    for (const [ns, local] of [
      ['urn:w', 'x'],
      ['urn:w', '*'],
      ['urn:a', 'y'],
      ['*', 'y'],
    ] as const) {
      expect(names(tree.getElementsByTagNameNS(ns, local))).toEqual(names(dom.getElementsByTagNameNS(ns, local)));
    }
    expect(tree.getAttribute('xml:id')).toBe('r');
    const xs = readChildren(tree, 'urn:w', 'x');
    expect(domOf(xs[1]!).toString()).toBe(readChildren(dom, 'urn:w', 'x')[1]!.toString());
    expect(domOf(dom)).toBe(dom);
    const inner = tree.getElementsByTagNameNS('urn:w', 'x');
    expect(domOf(inner[1]!).getAttribute('w:v')).toBe('n');
    expect(domsOf([inner[3]!, inner[2]!]).map((d) => d.getAttribute('w:v'))).toEqual(['4', '3']);
    expect(() => domOf(buildReadTree(xml, 'x.xml').getElementsByTagNameNS('urn:w', 'x')[0]!)).toThrow(/holds another one/);
    expect(NS.w).toBeTruthy();
  });

  it('a pruned tree keeps leaves without content, drops what it drops, and reads nothing after a stop', () => {
    const xml = '<r xmlns="urn:r"><keep><x/>t</keep><leaf><x/>u</leaf><drop><x/></drop><stop><x/></stop><after/><bad></r>';
    const verdicts: Record<string, 'leaf' | 'drop' | 'stop'> = { leaf: 'leaf', drop: 'drop', stop: 'stop' };
    const seen: string[] = [];
    const tree = buildReadTree(xml, 'x.xml', 'all', [], (e, parent) => {
      seen.push(`${parent?.localName ?? '-'}>${e.local}`);
      return verdicts[e.local] ?? 'keep';
    });
    const kids = readChildren(tree);
    expect(kids.map((e) => e.localName)).toEqual(['keep', 'leaf', 'stop']);
    expect(kids[0]!.textContent).toBe('t');
    expect(readChildren(kids[0]!).map((e) => e.localName)).toEqual(['x']);
    expect(kids[1]!.firstChild).toBeNull();
    expect(kids[2]!.firstChild).toBeNull();
    expect(seen).toEqual(['->r', 'r>keep', 'keep>x', 'r>leaf', 'r>drop', 'r>stop']);
    expect(() => buildReadTree(xml, 'x.xml')).toThrow(/not well-formed/);
  });
});
