import type { ZipPackage } from './zip-package.ts';
import { NS, childElements, parseXml } from '../xml/dom.ts';

/** OPC relationship types the engine follows (ECMA-376 Part 2; transitional and strict spellings). */
export const REL = {
  coreProperties: ['http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties', 'http://schemas.openxmlformats.org/officedocument/2006/relationships/metadata/core-properties'],
  extendedProperties: ['http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties', 'http://purl.oclc.org/ooxml/officeDocument/relationships/extendedProperties'],
  customProperties: ['http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties', 'http://purl.oclc.org/ooxml/officeDocument/relationships/customProperties'],
  officeDocument: ['http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument', 'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument'],
} as const;

/** One relationship of a part: its id, type, and target resolved to a part name (no leading slash). */
export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

/** The `_rels/<name>.rels` part name of a source part (`''` for the package itself). */
export function relsPartName(source: string): string {
  if (source === '') return '_rels/.rels';
  const slash = source.lastIndexOf('/');
  return `${source.slice(0, slash + 1)}_rels/${source.slice(slash + 1)}.rels`;
}

/** Resolves a relative target against the source part's folder (OPC part-name rules). */
export function resolveTarget(source: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const base = source.includes('/') ? source.slice(0, source.lastIndexOf('/')).split('/') : [];
  for (const seg of target.split('/')) {
    if (seg === '..') base.pop();
    else if (seg !== '.' && seg !== '') base.push(seg);
  }
  return base.join('/');
}

/** The relationships of `source` (package-level when `''`); empty when it has none. */
export function relationshipsOf(pkg: ZipPackage, source: string): Relationship[] {
  const name = relsPartName(source);
  const text = pkg.textOf(name);
  if (!text) return [];
  const root = parseXml(text, name).documentElement!;
  return childElements(root, NS.rel, 'Relationship').map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return { id: r.getAttribute('Id') ?? '', type: r.getAttribute('Type') ?? '', target: external ? target : resolveTarget(source, target), external };
  });
}

/** The first internal target of `source` with one of the relationship `types`, if any. */
export function targetOfType(pkg: ZipPackage, source: string, types: readonly string[]): string | undefined {
  return relationshipsOf(pkg, source).find((r) => !r.external && types.includes(r.type))?.target;
}
