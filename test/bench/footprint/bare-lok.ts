/**
 * test/bench/footprint/bare-lok.ts: what LibreOffice 25.2 needs in memory with no Node.js around it (issue 19), as
 * the floor under a kit's budget. Builds bare-lok.cc (g++, LibreOfficeKit's header-only loader) into a temporary
 * folder, runs it with the kits' environment (KIT_MEMORY_ENV, the print-server guard, the svp plugin) once per
 * warm-up variant (BENCH_WARM: semicolon-separated module lists, default "writer,calc,impress;writer;" — the pool's
 * warm-up, Writer only, none), each with one small docx open and nine tiles painted (BENCH_DOC, default delins.docx,
 * the footprint bench's document), and prints RSS, PSS, anonymous and file-backed memory (MB) with the largest
 * file mappings. Run: `node bin/run-ts.js test/bench/footprint/bare-lok.ts`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRINT_SERVER_GUARD } from '../../../daemon/kit/print-guard.ts';
import { DEFAULT_ALLOWLIST_LANGUAGES, KIT_MEMORY_ENV } from '../../../daemon/server/pool/kit-process.ts';
import { breakdown } from './smaps.ts';

const HERE = new URL('.', import.meta.url).pathname;
const DOC = join(HERE, '../../../../shared/corpus', process.env.BENCH_DOC ?? 'tracked-changes/delins.docx');
const VARIANTS = (process.env.BENCH_WARM ?? 'writer,calc,impress;writer;').split(';');
const mb = (kb: number) => Math.round(kb / 102.4) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const root = mkdtempSync(join(tmpdir(), 'ode-bare-lok-'));
try {
  const exe = join(root, 'bare-lok');
  const built = spawnSync('g++', ['-O2', '-o', exe, join(HERE, 'bare-lok.cc'), '-ldl'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`g++ failed: ${built.stderr}`);
  console.log(`| warm-up modules | RSS (MB) | PSS (MB) | anonymous (MB) | file-backed (MB) | largest file mappings (MB) |`);
  console.log('|---|---:|---:|---:|---:|---|');
  for (const modules of VARIANTS) {
    const dir = join(root, `run-${modules.replace(/,/g, '-') || 'none'}`);
    mkdirSync(join(dir, 'profile'), { recursive: true });
    const child = spawn(exe, ['/usr/lib/libreoffice/program', pathToFileURL(join(dir, 'profile')).href, dir, DOC, modules || 'none'], {
      env: {
        ...process.env,
        ...KIT_MEMORY_ENV,
        ...PRINT_SERVER_GUARD,
        LOK_ALLOWLIST_LANGUAGES: DEFAULT_ALLOWLIST_LANGUAGES,
        DISPLAY: '',
        SAL_USE_VCLPLUGIN: 'svp',
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /READY (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`bare-lok exited with ${code} before READY`)));
    });
    // As kit-memory.ts: 3 s after the tiles, so that LibreOffice's idle jobs after the load have run.
    await sleep(3000);
    const b = breakdown(pid);
    const top = Object.entries(b.byFile)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 5)
      .map(([f, kb]) => `${f} ${mb(kb)}`)
      .join(', ');
    console.log(`| ${modules || 'none'} | ${mb(b.rss)} | ${mb(b.pss)} | ${mb(b.anon)} | ${mb(b.file)} | ${top} |`);
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
