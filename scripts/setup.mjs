#!/usr/bin/env node
// One idempotent set-up step, run by `npm start` and `npm test` before anything else. On a fresh Debian machine
// it installs what is missing: Debian packages with apt-get when run as root (otherwise it stops with the exact
// command to run), npm packages from the committed lockfile, and the native LibreOfficeKit addon. When nothing
// is missing it only checks, in well under 5 seconds. Plain JavaScript: it runs before any npm package exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

/** Debian packages Ode needs: LibreOffice and its kit headers, fonts documents expect, and test/bench tools. */
const DEBIAN_PACKAGES = [
  'libreoffice-core',
  'libreoffice-writer',
  'libreoffice-calc',
  'libreoffice-impress',
  'libreoffice-draw',
  'libreofficekit-dev',
  'fonts-dejavu',
  'fonts-liberation2',
  'fonts-crosextra-carlito',
  'fonts-crosextra-caladea',
  'fonts-noto-cjk', // Chinese, Japanese and Korean text (without it such documents show empty boxes)
  'hunspell-en-us', // a spelling dictionary: the settings tests check a wordbook against it
  'poppler-utils', // pdfinfo/pdftoppm for the tests
  'unoconv', // the baseline of test/bench/convert
  'chromium', // the browser of the editor tests, driven by playwright-core
  'tmux', // the dashboard's pseudo-terminal test (tui/)
  'nginx', // test/deploy: docs/deploy/nginx.conf runs in front of a real Ode (the service itself stays unused)
  'apache2', // test/deploy: docs/deploy/apache.conf, with mod_proxy_wstunnel and mod_headers from the same package
  'python3-lxml', // test/hosts: lxml, the strict parser Collabora's Python SDK example reads discovery with
  'openssl', // test/tls: an independent check of `ode certs generate` output and the WOPI host's self-signed certificate
  'bubblewrap', 'libseccomp-dev', // kits' sandbox and the libseccomp its seccomp filter is built with (docs/security.md)
  'ca-certificates', // the system CAs Ode's requests to WOPI hosts verify against (/etc/ssl/certs/ca-certificates.crt)
];

function step(msg) {
  process.stderr.write(`[setup] ${msg}\n`);
}

function fail(msg) {
  process.stderr.write(`[setup] ${msg}\n`);
  process.exit(1);
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) fail(`Node ${process.versions.node} is too old: Ode needs Node >= 20.19.`);
}

function missingDebianPackages() {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Abbrev}\n', ...DEBIAN_PACKAGES], { encoding: 'utf8' });
  if (r.error) fail('dpkg-query is not available: Ode is set up for Debian 12 (bookworm).');
  const installed = new Set(
    r.stdout
      .split('\n')
      .filter((l) => /\sii\s*$/.test(l))
      .map((l) => l.split(' ')[0]),
  );
  return DEBIAN_PACKAGES.filter((p) => !installed.has(p));
}

function installDebianPackages() {
  const missing = missingDebianPackages();
  if (missing.length === 0) return;
  const cmd = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) fail(`missing Debian packages: ${missing.join(', ')}.\nRun as root:\n  sudo sh -c '${cmd}'\nthen run this command again.`);
  step(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
  const still = missingDebianPackages();
  if (still.length) fail(`apt-get did not install: ${still.join(', ')}`);
}

function installNpmPackages() {
  const lock = join(root, 'package-lock.json');
  if (!existsSync(lock)) fail('package-lock.json is missing: the lockfile must be committed.');
  const hash = createHash('sha256').update(readFileSync(lock)).digest('hex');
  const stamp = join(root, 'node_modules', '.ode-lock-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  step('installing npm packages (npm ci)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, hash);
}

function buildNativeAddon() {
  const r = spawnSync(process.execPath, [join(root, 'daemon/native/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail('building the native LibreOfficeKit addon failed (see above).');
}

/** Builds the browser editor bundle (daemon/editor/build.mjs: esbuild, only when its sources changed). */
function buildEditor() {
  const r = spawnSync(process.execPath, [join(root, 'daemon/editor/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail('building the browser editor failed (see above).');
}

/** Builds the compiled JavaScript a production install runs (scripts/build-dist.mjs: esbuild, only when sources changed). */
function buildDist() {
  const r = spawnSync(process.execPath, [join(root, 'scripts/build-dist.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail('building the compiled daemon (dist/) failed (see above).');
}

/** The demo host's sample sources (flat ODF in the repo) and the format each is converted to. */
const SAMPLES = [
  ['letter.fodt', 'docx'],
  ['budget.fods', 'xlsx'],
  ['slides.fodp', 'pptx'],
];

/**
 * Creates `documents/` (demo_host.folder's default) with the sample documents, converted by LibreOffice from
 * daemon/server/demo-host/samples/, only when the folder does not exist yet. The conversion runs in a temp folder
 * with its own LibreOffice profile, and the folder appears only when every sample converted.
 */
function createSampleDocuments() {
  const target = join(root, 'documents');
  if (existsSync(target)) return;
  step('creating documents/ with the sample documents (LibreOffice converts them)');
  const work = mkdtempSync(join(tmpdir(), 'ode-samples-'));
  try {
    const out = join(work, 'out');
    mkdirSync(out);
    for (const [source, format] of SAMPLES) {
      const r = spawnSync(
        '/usr/lib/libreoffice/program/soffice',
        [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--norestore', '--convert-to', format, '--outdir', out, join(root, 'daemon/server/demo-host/samples', source)],
        { encoding: 'utf8', timeout: 120_000 },
      );
      if (r.status !== 0 || !existsSync(join(out, source.replace(/\.\w+$/, `.${format}`)))) fail(`LibreOffice could not convert the sample ${source}: ${r.stderr || r.error?.message || `exit ${r.status}`}`);
    }
    mkdirSync(target);
    for (const name of readdirSync(out)) copyFileSync(join(out, name), join(target, name));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

checkNode();
installDebianPackages();
installNpmPackages();
buildNativeAddon();
buildEditor();
buildDist();
createSampleDocuments();
step(`ready (${Date.now() - started} ms)`);
