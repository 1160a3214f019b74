import { readFileSync, writeFileSync, mkdtempSync, rmSync, copyFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { Command } from 'commander';
import { ConvertService, KitPool } from '../daemon/server/index.ts';
import { loadRuntime } from './runtime.ts';

/** `ode convert <file> --to <format> [-o out]`: one conversion through a kit, no server needed. */
export function convertCommand(): Command {
  return new Command('convert')
    .description('convert a document through a LibreOffice kit (no server needed)')
    .argument('<file>', 'the document to convert')
    .requiredOption('-t, --to <format>', 'output format, e.g. pdf, docx, odt, png, csv')
    .option('-o, --output <file>', 'output file (default: the input name with the new extension, in the current folder)')
    .option('--options <json>', 'export options: the PDF options JSON object, or CSV codes such as 44,34,76')
    .option('--infilter-options <codes>', 'import filter options, e.g. CSV 59,34,76,1')
    .option('--lang <tag>', 'language, e.g. de-DE')
    .option('--password <password>', 'password of a protected document')
    .action(
      async (
        file: string,
        opts: { to: string; output?: string; options?: string; infilterOptions?: string; lang?: string; password?: string },
        cmd: Command,
      ) => {
        const { store, log } = loadRuntime(cmd, 'warn');
        const cfg = store.get();
        // prespawn 0: the one conversion spawns the one kit it needs, and no spare.
        const pool = new KitPool({ config: () => ({ ...cfg, kits: { ...cfg.kits, prespawn: 0 } }), log });
        const work = mkdtempSync(join(tmpdir(), 'ode-convert-'));
        try {
          const input = join(work, 'input');
          copyFileSync(resolve(file), input);
          readFileSync(input, { flag: 'r' }); // fail early with the OS error when unreadable
          pool.start();
          const service = new ConvertService(pool, () => cfg, log);
          const out = await service.convert({
            path: input,
            filename: basename(file),
            fields: { format: opts.to, options: opts.options, infilterOptions: opts.infilterOptions, lang: opts.lang, password: opts.password },
          });
          const target = resolve(opts.output ?? `${basename(file, extname(file))}.${out.filename.split('.').pop()}`);
          writeFileSync(target, out.bytes);
          process.stderr.write(`${target} (${out.bytes.length} bytes, ${Math.round(out.timings.totalMs)} ms)\n`);
        } finally {
          await pool.stop();
          rmSync(work, { recursive: true, force: true });
        }
      },
    );
}
