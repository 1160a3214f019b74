/**
 * Issue 15, "a document can stall for 20 seconds": documents that name a printer (made here from scratch:
 * test/helpers/printer-documents.ts) load, convert and extract at normal speed, and no kit contacts a print server.
 *
 * The print server is a TCP listener that CUPS_SERVER points at (LibreOffice reaches CUPS through libcups, which
 * honours it): it counts connections and closes each at once, so an unguarded LibreOffice is counted instead of
 * left waiting. The control shows that LibreOffice 25.2 on its own does connect (through the bare addon, without
 * the kit's guard); then, through a real daemon, conversions and extractions of the same documents make none.
 * Kits run unsandboxed here: a sandboxed kit has no network, which would hide a connection attempt.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fixtureDirs, runFixture } from '../../daemon/native/test-fixtures/run-fixture.ts';
import { postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { docxNamingPrinter, odtNamingPrinter, pptxNamingPrinter, PRINTER_DOC_TEXT, PRINTER_NAME, xlsxNamingPrinter } from '../helpers/printer-documents.ts';

const dir = mkdtempSync(join(tmpdir(), 'ode-print-server-'));
const fixtures = fixtureDirs('ode-print-server-fixture');
const DOCS: Record<string, Buffer> = {
  'printer.odt': odtNamingPrinter(),
  'printer.docx': docxNamingPrinter(),
  'printer.xlsx': xlsxNamingPrinter(),
  'printer.pptx': pptxNamingPrinter(),
};
for (const [name, bytes] of Object.entries(DOCS)) writeFileSync(join(dir, name), bytes);

let printServer: Server;
let connections = 0;
let daemon: TestDaemon | undefined;
const savedCupsServer = process.env.CUPS_SERVER;

beforeAll(async () => {
  printServer = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => printServer.listen(0, '127.0.0.1', resolve));
  process.env.CUPS_SERVER = `127.0.0.1:${(printServer.address() as { port: number }).port}`;
});

afterAll(async () => {
  await daemon?.stop();
  if (savedCupsServer === undefined) delete process.env.CUPS_SERVER;
  else process.env.CUPS_SERVER = savedCupsServer;
  await new Promise((resolve) => printServer.close(resolve));
  fixtures.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function pdfText(pdf: Buffer): string {
  const file = join(dir, `out-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

describe('documents that name a printer', () => {
  it('carry the printer as Office and OpenOffice write it', () => {
    const settings = execFileSync('unzip', ['-p', join(dir, 'printer.odt'), 'settings.xml'], { encoding: 'utf8' });
    expect(settings).toContain(`<config:config-item config:name="PrinterName" config:type="string">${PRINTER_NAME}</config:config-item>`);
    expect(settings).toMatch(/config:name="PrinterSetup" config:type="base64Binary">[A-Za-z0-9+/=]{100,}</);
    const rels = execFileSync('unzip', ['-p', join(dir, 'printer.docx'), 'word/_rels/document.xml.rels'], { encoding: 'utf8' });
    expect(rels).toContain('relationships/printerSettings" Target="printerSettings/printerSettings1.bin"');
    const devmode = execFileSync('unzip', ['-p', join(dir, 'printer.docx'), 'word/printerSettings/printerSettings1.bin']);
    expect(devmode.subarray(0, PRINTER_NAME.length * 2).toString('utf16le')).toBe(PRINTER_NAME);
  });

  it('control: LibreOffice 25.2 left to itself asks the print server while loading them', { timeout: 300_000 }, async () => {
    connections = 0;
    const run = await runFixture<Array<{ file: string; loadMs: number }>>('printer-load', {
      workDir: fixtures.workDir(),
      profileDir: fixtures.profileDir,
      args: Object.keys(DOCS).map((name) => join(dir, name)),
      timeoutMs: 280_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toHaveLength(4);
    expect(connections).toBeGreaterThan(0);
    console.log(
      `[print-server] unguarded LibreOffice: ${connections} connection(s) to CUPS_SERVER; ${run.result!.map((r) => `${r.file} load ${r.loadMs} ms`).join(', ')}`,
    );
  });

  it('through Ode: convert-to and extract-document-structure at normal speed, and no connection to the print server', { timeout: 300_000 }, async () => {
    daemon = await startDaemon({ security: { sandbox: 'off' } });
    connections = 0;
    const times: string[] = [];
    for (const name of Object.keys(DOCS)) {
      const started = Date.now();
      const answer = await postConvert(daemon.url, '/ode/convert-to/pdf', join(dir, name));
      times.push(`${name} -> pdf ${Date.now() - started} ms`);
      expect(answer.status, JSON.stringify(answer.error)).toBe(200);
      expect(pdfText(answer.body)).toContain(PRINTER_DOC_TEXT);
    }
    for (const name of ['printer.odt', 'printer.docx']) {
      const started = Date.now();
      const answer = await postConvert(daemon.url, '/ode/extract-document-structure', join(dir, name), { filter: 'docprops' });
      times.push(`${name} docprops ${Date.now() - started} ms`);
      expect(answer.status, answer.body.toString('utf8')).toBe(200);
      const props = (JSON.parse(answer.body.toString('utf8')) as { DocStructure: { DocumentProperties: { DocumentStatistics?: Record<string, unknown> } } })
        .DocStructure.DocumentProperties;
      // PageCount comes from LibreOffice's layout in a kit (docs/structure/README.md): the document was loaded there.
      expect(props.DocumentStatistics?.PageCount, answer.body.toString('utf8')).toBe(1);
    }
    expect(connections).toBe(0);
    console.log(`[print-server] through Ode, 0 connections: ${times.join(', ')}`);
    expect(readFileSync(join(dir, 'printer.odt')).length).toBeGreaterThan(0);
  });
});
