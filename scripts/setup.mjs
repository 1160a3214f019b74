#!/usr/bin/env node
// One idempotent set-up step, run by `npm start` and `npm test` before anything else. On a fresh Debian machine
// it installs what is missing: Debian packages with apt-get when run as root (otherwise it stops with the exact
// command to run), npm packages from the committed lockfile, and the native LibreOfficeKit addon. When nothing
// is missing it only checks, in well under 5 seconds. Plain JavaScript: it runs before any npm package exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
  'poppler-utils', // pdfinfo/pdftoppm for the tests
  'unoconv', // the baseline of test/bench/convert
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

checkNode();
installDebianPackages();
installNpmPackages();
buildNativeAddon();
step(`ready (${Date.now() - started} ms)`);
