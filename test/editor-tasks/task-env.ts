import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { CORPUS } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { startHostPage, type HostPage } from '../helpers/host-page.ts';

/** One document opened in Chromium through a host page (test/helpers/host-page.ts) on the FakeWopiHost. */
export interface OpenedTask {
  page: Page;
  /** The editor iframe. */
  frame: FrameLocator;
  host: HostPage;
  /** The FakeWopiHost's file id. */
  id: string;
  /** The bytes the host stores now (the last PutFile). */
  stored(): Buffer;
  /** How many PutFiles the host has received for this file. */
  putFiles(): number;
  close(): Promise<void>;
}

/** The shared parts of one task file: a daemon, a WOPI host, Chromium; `open` opens a document through a host page. */
export interface TaskEnv {
  daemon: TestDaemon;
  wopi: FakeWopiHost;
  browser: Browser;
  /** `fileInfo`: CheckFileInfo properties the host page's proxy merges over the host's answer (UserCanWrite: false, ...). */
  open(
    name: string,
    bytes: Buffer,
    opts?: { viewport?: { width: number; height: number }; userId?: string; userName?: string; fileInfo?: Record<string, unknown> },
  ): Promise<OpenedTask>;
}

/**
 * For the file it is called in: one daemon (saves only when asked unless `documents` says otherwise), one
 * FakeWopiHost and one Chromium, started in beforeAll and stopped in afterAll. `open` posts the host page's form
 * into an iframe and waits for the host to receive Document_Loaded.
 */
export function useTaskEnv(documents: Record<string, number> = {}): TaskEnv {
  const env = {} as TaskEnv;
  let n = 0;
  const opened: OpenedTask[] = [];
  beforeAll(async () => {
    // EDITOR_TASKS_SANDBOX (required|auto|off) overrides security.sandbox for a machine where bubblewrap cannot run
    // (not ODE_*: the daemon reads those as config overrides when it reloads its file).
    const sandbox = process.env.EDITOR_TASKS_SANDBOX ? { security: { sandbox: process.env.EDITOR_TASKS_SANDBOX } } : {};
    env.daemon = await startDaemon({
      ...sandbox,
      documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, idle_unload_secs: 3600, ...documents },
    });
    env.wopi = await FakeWopiHost.start();
    env.browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    for (const o of opened) await o.close().catch(() => undefined);
    await env.browser?.close();
    await env.daemon?.stop();
    await env.wopi?.stop();
  });
  env.open = async (name, bytes, opts = {}) => {
    const id = `task${n++}`;
    const info = { ...(opts.userId ? { UserId: opts.userId, UserFriendlyName: opts.userName ?? opts.userId } : {}), ...opts.fileInfo };
    const src = env.wopi.files.has(id) ? env.wopi.fileUrl(id) : env.wopi.addFile(id, name, bytes);
    const host = await startHostPage({ daemonUrl: env.daemon.url, wopiSrc: src, token: env.wopi.token, fileInfo: info });
    const page = await env.browser.newPage({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
    await page.goto(host.url, { waitUntil: 'domcontentloaded', timeout: 90_000 });
    await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000);
    const frame = page.frameLocator('#ode');
    const task: OpenedTask = {
      page,
      frame,
      host,
      id,
      stored: () => env.wopi.files.get(id)!.bytes,
      putFiles: () => env.wopi.of('PutFile').filter((r) => r.path.endsWith(`/${id}/contents`)).length,
      async close() {
        await page.close().catch(() => undefined);
        await host.stop();
      },
    };
    opened.push(task);
    return task;
  };
  return env;
}

/**
 * A second view of an opened document, as another user, in its own browser context: the same host page server
 * (same origin, same WOPISrc, so the daemon opens one document for both; host-page.ts `forUser`) with that user's
 * access token and CheckFileInfo (UserId, UserFriendlyName).
 */
export async function openAgain(
  env: TaskEnv,
  first: OpenedTask,
  user: { userId: string; userName: string },
  viewport = { width: 1280, height: 800 },
): Promise<OpenedTask> {
  const host = first.host.forUser(user.userId.replace(/[^\w-]/g, '_'), { UserId: user.userId, UserFriendlyName: user.userName });
  const page = await env.browser.newPage({ viewport });
  await page.goto(host.url, { waitUntil: 'domcontentloaded', timeout: 90_000 });
  await host.waitFor('App_LoadingStatus', (m) => m.Values.Status === 'Document_Loaded', 90_000);
  return {
    ...first,
    page,
    frame: page.frameLocator('#ode'),
    host,
    async close() {
      await page.close().catch(() => undefined);
    },
  };
}

const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const utf8 = (s: string) => new TextEncoder().encode(s);

/**
 * A minimal WordprocessingML package (ECMA-376 part 1: content types, package and part relationships, styles, an A4
 * page with 2 cm margins) holding one US-English paragraph per entry of `paragraphs` (14 pt; text XML-escaped).
 */
export function minimalDocx(paragraphs: string[]): Buffer {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = paragraphs.map((p) => `<w:p><w:r><w:rPr><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join('');
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
      ),
      '_rels/.rels': utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${OFFICE_REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
      ),
      'word/_rels/document.xml.rels': utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${OFFICE_REL}/styles" Target="styles.xml"/></Relationships>`,
      ),
      'word/styles.xml': utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${W_NS}><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="28"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`,
      ),
      'word/document.xml': utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W_NS}><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="567" w:footer="567" w:gutter="0"/></w:sectPr></w:body></w:document>`,
      ),
    }),
  );
}

/** A corpus file's bytes (`../shared/corpus/<path>`). */
export const corpus = (path: string): Buffer => readFileSync(join(CORPUS, path));

/** The parts of a zip package as text. */
export function zipText(bytes: Buffer): (part: string) => string {
  const files = unzipSync(new Uint8Array(bytes));
  return (part) => (files[part] ? new TextDecoder().decode(files[part]) : '');
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * The cells of an xlsx's sheet (by name) as `{A1: text}`: shared strings resolved, inline strings, values of
 * numbers and formulas (`=` + formula for formula cells is in `formulas`). Read with regular expressions over
 * xl/workbook.xml, its rels, xl/sharedStrings.xml and the worksheet part (an oracle independent of LibreOffice).
 */
export function xlsxCells(bytes: Buffer, sheet?: string): { values: Record<string, string>; formulas: Record<string, string>; xml: string } {
  const read = zipText(bytes);
  const wb = read('xl/workbook.xml');
  const sheets = [...wb.matchAll(/<sheet\b[^>]*>/g)].map((m) => ({ name: unescapeXml(/name="([^"]*)"/.exec(m[0])![1]), rid: /r:id="([^"]*)"/.exec(m[0])![1] }));
  const target = sheet ? sheets.find((s) => s.name === sheet) : sheets[0];
  if (!target) throw new Error(`no sheet ${sheet}`);
  const rels = read('xl/_rels/workbook.xml.rels');
  const rel = [...rels.matchAll(/<Relationship\b[^>]*>/g)].map((m) => m[0]).find((r) => r.includes(`Id="${target.rid}"`))!;
  const path = `xl/${/Target="([^"]+)"/.exec(rel)![1].replace(/^\/?xl\//, '')}`;
  const shared = [...read('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    [...m[1].matchAll(/<t(?: [^>]*)?>([^<]*)<\/t>/g)].map((t) => unescapeXml(t[1])).join(''),
  );
  const xml = read(path);
  const values: Record<string, string> = {};
  const formulas: Record<string, string> = {};
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const [, ref, attrs, inner = ''] = m;
    const v = /<v>([^<]*)<\/v>/.exec(inner)?.[1];
    const f = /<f(?: [^>]*)?>([^<]*)<\/f>/.exec(inner)?.[1];
    if (f !== undefined) formulas[ref] = unescapeXml(f);
    if (/t="s"/.test(attrs) && v !== undefined) values[ref] = shared[Number(v)];
    else if (/t="inlineStr"/.test(attrs)) values[ref] = [...inner.matchAll(/<t(?: [^>]*)?>([^<]*)<\/t>/g)].map((t) => unescapeXml(t[1])).join('');
    else if (v !== undefined) values[ref] = unescapeXml(v);
  }
  return { values, formulas, xml };
}

/** The text of an ODF package's content.xml with tags removed and paragraphs on their own lines. */
export function odfText(bytes: Buffer): string {
  return unescapeXml(
    zipText(bytes)('content.xml')
      .replace(/<text:s\/>/g, ' ')
      .replace(/<\/text:(p|h)>/g, '\n')
      .replace(/<[^>]+>/g, ''),
  );
}

/** The text of a docx's word/document.xml, paragraphs on their own lines. */
export function docxText(bytes: Buffer): string {
  return unescapeXml(
    zipText(bytes)('word/document.xml')
      .replace(/<w:tab\/>/g, '\t')
      .replace(/<\/w:p>/g, '\n')
      .replace(/<w:delText[^>]*>[^<]*<\/w:delText>/g, '')
      .replace(/<[^>]+>/g, ''),
  );
}

/** expect.poll with room for a loaded 2-core machine. */
export const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

/** SpreadsheetML's built-in number formats (ECMA-376 part 1, 18.8.30) that LibreOffice writes by id. */
const BUILTIN_NUMFMT: Record<string, string> = {
  '0': 'General',
  '1': '0',
  '2': '0.00',
  '3': '#,##0',
  '4': '#,##0.00',
  '9': '0%',
  '10': '0.00%',
  '11': '0.00E+00',
  '14': 'mm-dd-yy',
  '15': 'd-mmm-yy',
  '16': 'd-mmm',
  '17': 'mmm-yy',
  '18': 'h:mm AM/PM',
  '19': 'h:mm:ss AM/PM',
  '20': 'h:mm',
  '21': 'h:mm:ss',
  '22': 'm/d/yy h:mm',
};

/**
 * The number format code of cell `ref` of an xlsx's sheet: the cell's `s` -> xl/styles.xml cellXfs xf numFmtId ->
 * a numFmt's formatCode or a built-in format (`General` without a style). Read with regular expressions.
 */
export function xlsxNumberFormat(bytes: Buffer, ref: string, sheet?: string): string {
  const { xml } = xlsxCells(bytes, sheet);
  const cell = new RegExp(`<c r="${ref}"([^>]*?)(?:/>|>)`).exec(xml);
  const s = cell ? /\bs="(\d+)"/.exec(cell[1])?.[1] : undefined;
  if (s === undefined) return 'General';
  const styles = zipText(bytes)('xl/styles.xml');
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  const xf = [...xfs.matchAll(/<xf\b[^>]*?(?:\/>|>[\s\S]*?<\/xf>)/g)][Number(s)]?.[0] ?? '';
  const id = /numFmtId="(\d+)"/.exec(xf)?.[1] ?? '0';
  const custom =
    new RegExp(`<numFmt [^>]*numFmtId="${id}"[^>]*formatCode="([^"]*)"`).exec(styles) ??
    new RegExp(`<numFmt [^>]*formatCode="([^"]*)"[^>]*numFmtId="${id}"`).exec(styles);
  return custom ? unescapeXml(custom[1]) : (BUILTIN_NUMFMT[id] ?? `builtin ${id}`);
}
