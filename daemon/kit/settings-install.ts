/**
 * Installs a host's settings files (host-integration protocol, "UserSettings" / "Settings fetch response") into
 * this kit's LibreOffice user profile, before lok_init_2 reads it (kit.md, "Settings"):
 *
 * | setting    | file      | goes to                                   | why it takes effect                                        |
 * |------------|-----------|-------------------------------------------|------------------------------------------------------------|
 * | `autotext` | `*.bau`   | `user/autotext/<name>`                    | the user autotext path ($(userurl)/autotext)               |
 * | `wordbook` | `*.dic`   | `user/wordbook/<name>` + ActiveDictionaries | the dictionary list scans $(userurl)/wordbook, but only activates names listed in Linguistic/General/DictionaryList/ActiveDictionaries |
 * | `xcu`      | `*.xcu`   | items of `user/registrymodifications.xcu` | the user configuration layer, read once at start           |
 *
 * Why before start-up and not into a running LibreOffice: the configuration is read once by configmgr, and the
 * dictionary list is built once (linguistic's DicList::CreateDicList) with its active set taken from the
 * configuration; LibreOfficeKit has no call that re-reads either (7.4 had none, nor has 25.2's LibreOfficeKit.h). Files are written in manifest order, shared
 * first: a user file with the same name replaces the shared one, and user xcu items come after shared ones (the
 * later item wins in configmgr). Pure file work: nothing here touches LibreOffice.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import type { KitSettingsManifest, KitSettingsReport } from '../protocol/kit.ts';

const OOR = 'http://openoffice.org/2001/registry';
const EMPTY_ITEMS = `<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="${OOR}" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"></oor:items>`;
/**
 * LibreOffice's default ActiveDictionaries (officecfg Linguistic.xcs; the same list in 7.4 and in 25.2's main.xcd):
 * the list we write replaces it, so the defaults are kept in it.
 */
const DEFAULT_ACTIVE_DICTIONARIES = ['IgnoreAllList', 'standard.dic', 'en-US.dic', 'en-GB.dic', 'sl.dic', 'technical.dic', 'hu_AkH11.dic'];
/** First line of a LibreOffice user dictionary (linguistic's dicimp.cxx, version 5 and later). */
const DIC_MAGIC = 'OOoUserDict1';
/** A plain file name: no separators, not hidden, no control characters. */
const PLAIN_NAME = /^(?!\.)[^/\\\x00-\x1f]{1,255}$/;
/** A configuration node name that can stand as an oor:path segment as it is. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_.:-]+$/;

/**
 * Writes the manifest's files into `<profileDir>/user`. Never throws for a bad file: it is skipped and named in
 * the report with the reason (unknown setting, wrong extension, not a user dictionary, xcu not well formed, file
 * unreadable).
 */
export function installSettings(profileDir: string, manifest: KitSettingsManifest): KitSettingsReport {
  const started = performance.now();
  const user = join(profileDir, 'user');
  const report: KitSettingsReport = { installed: [], skipped: [], ms: 0 };
  const dictionaries: string[] = [];
  const xcuItems: Element[] = [];
  for (const f of manifest.files) {
    const label = `${f.source}/${f.setting}/${f.name}`;
    const skip = (reason: string) => report.skipped.push({ file: label, reason });
    if (!PLAIN_NAME.test(f.name) || basename(f.name) !== f.name) {
      skip('not a plain file name');
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(f.path);
    } catch (e) {
      skip(`unreadable: ${(e as Error).message}`);
      continue;
    }
    const ext = extname(f.name).toLowerCase();
    switch (f.setting) {
      case 'autotext':
        if (ext !== '.bau') {
          skip('an autotext file must be a .bau file');
          continue;
        }
        place(f.path, join(user, 'autotext'), f.name);
        break;
      case 'wordbook':
        if (ext !== '.dic') {
          skip('a wordbook must be a .dic file');
          continue;
        }
        if (!bytes.subarray(0, 64).toString('utf8').startsWith(DIC_MAGIC)) {
          skip(`not a LibreOffice user dictionary (the first line must be ${DIC_MAGIC})`);
          continue;
        }
        place(f.path, join(user, 'wordbook'), f.name);
        if (!dictionaries.includes(f.name)) dictionaries.push(f.name);
        break;
      case 'xcu': {
        if (ext !== '.xcu') {
          skip('a configuration file must be an .xcu file');
          continue;
        }
        try {
          xcuItems.push(...xcuToItems(bytes.toString('utf8')));
        } catch (e) {
          skip((e as Error).message);
          continue;
        }
        break;
      }
      default:
        skip(`unknown setting "${f.setting}" (known: autotext, wordbook, xcu)`);
        continue;
    }
    report.installed.push(label);
  }
  if (xcuItems.length > 0 || dictionaries.length > 0) writeItems(user, xcuItems, dictionaries);
  report.ms = Math.round((performance.now() - started) * 10) / 10;
  return report;
}

function place(from: string, dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  copyFileSync(from, join(dir, name));
}

function parse(text: string, what: string): Document {
  const errors: string[] = [];
  let doc: Document;
  try {
    doc = new DOMParser({ onError: (level, message) => void (level !== 'warning' && errors.push(message)) }).parseFromString(text, 'text/xml');
  } catch (e) {
    throw new Error(`${what} is not well-formed XML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (errors.length > 0 || !doc.documentElement) throw new Error(`${what} is not well-formed XML: ${errors[0]?.split('\n')[0] ?? 'no root element'}`);
  return doc;
}

function elements(parent: Element): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

/**
 * The `item` elements an xcu stands for. Two forms are read: `oor:items` (the form of registrymodifications.xcu:
 * its items as they are) and `oor:component-data` (the form of officecfg and extensions: every `prop` becomes an
 * item at its node path; a set member added or replaced, or a node whose name cannot stand in a path, becomes one
 * item holding the whole node).
 * @throws Error naming what is wrong (not XML, another root element, a component without package or name).
 */
export function xcuToItems(text: string): Element[] {
  const doc = parse(text, 'the xcu');
  const root = doc.documentElement!;
  if (root.namespaceURI === OOR && root.localName === 'items') return elements(root).filter((e) => e.localName === 'item' && e.getAttributeNS(OOR, 'path'));
  if (root.namespaceURI !== OOR || root.localName !== 'component-data')
    throw new Error(`the xcu's root element must be oor:items or oor:component-data, not ${root.tagName}`);
  const pkg = root.getAttributeNS(OOR, 'package');
  const name = root.getAttributeNS(OOR, 'name');
  if (!pkg || !name) throw new Error('the xcu component has no oor:package or oor:name');
  const items: Element[] = [];
  const walk = (node: Element, path: string) => {
    for (const child of elements(node)) {
      const childName = child.getAttributeNS(OOR, 'name') ?? '';
      const op = child.getAttributeNS(OOR, 'op');
      if (child.localName === 'prop' || (child.localName === 'node' && (op === 'replace' || op === 'remove' || !PLAIN_SEGMENT.test(childName)))) {
        const item = doc.createElement('item');
        item.setAttributeNS(OOR, 'oor:path', path);
        item.appendChild(child.cloneNode(true));
        items.push(item);
      } else if (child.localName === 'node') {
        walk(child, `${path}/${childName}`);
      }
    }
  };
  walk(root, `/${pkg}.${name}`);
  return items;
}

/** Appends the items, then the ActiveDictionaries item, to `user/registrymodifications.xcu` (created when missing). */
function writeItems(user: string, items: Element[], dictionaries: string[]): void {
  const file = join(user, 'registrymodifications.xcu');
  const out = parse(existsSync(file) ? readFileSync(file, 'utf8') : EMPTY_ITEMS, file);
  const root = out.documentElement!;
  for (const item of items) root.appendChild(out.importNode(item, true));
  if (dictionaries.length > 0) {
    // After the host's items: an xcu of its own must not switch off the dictionaries it sent as wordbooks.
    const item = out.createElement('item');
    item.setAttributeNS(OOR, 'oor:path', '/org.openoffice.Office.Linguistic/General/DictionaryList');
    const prop = out.createElement('prop');
    prop.setAttributeNS(OOR, 'oor:name', 'ActiveDictionaries');
    prop.setAttributeNS(OOR, 'oor:op', 'fuse');
    const value = out.createElement('value');
    for (const d of [...DEFAULT_ACTIVE_DICTIONARIES, ...dictionaries.filter((n) => !DEFAULT_ACTIVE_DICTIONARIES.includes(n))]) {
      const it = out.createElement('it');
      it.appendChild(out.createTextNode(d));
      value.appendChild(it);
    }
    prop.appendChild(value);
    item.appendChild(prop);
    root.appendChild(item);
  }
  mkdirSync(user, { recursive: true });
  writeFileSync(file, `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`);
}
