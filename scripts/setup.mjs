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
import { engineSource, installPlan, PACKAGES, servicesOf } from './debian-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

/**
 * The package roles beyond the server's: `npm test` runs `setup.mjs --with test`, the benchmarks `--with bench`
 * (scripts/debian-packages.mjs lists each package with its role). `npm start` installs the server's only.
 */
const ROLES = (() => {
  const i = process.argv.indexOf('--with');
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1].split(',') : [];
})();

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

/** Installed versions of the packages set-up knows (dpkg's `ii` state only): name -> Debian version. */
function installedPackages() {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Abbrev} ${Version}\n', ...PACKAGES.map((p) => p.name)], { encoding: 'utf8' });
  if (r.error) fail('dpkg-query is not available: Ode is set up for Debian 12 (bookworm) and Debian 13 (trixie).');
  const installed = new Map();
  for (const line of r.stdout.split('\n')) {
    const m = /^(\S+) ii\s+(\S+)/.exec(line);
    if (m) installed.set(m[1], m[2]);
  }
  return installed;
}

/** VERSION_CODENAME of /etc/os-release (`bookworm`, `trixie`, ...), or '' when unknown. */
function debianCodename() {
  try {
    return /^VERSION_CODENAME=(.*)$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1].replace(/"/g, '') ?? '';
  } catch {
    return '';
  }
}

/** True when some apt source already lists `suite` (e.g. bookworm-backports added by the administrator). */
function aptHasSuite(suite) {
  const files = [
    '/etc/apt/sources.list',
    ...(existsSync('/etc/apt/sources.list.d') ? readdirSync('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f)) : []),
  ];
  return files.some(
    (f) =>
      /\.(list|sources)$/.test(f) &&
      existsSync(f) &&
      readFileSync(f, 'utf8')
        .split('\n')
        .some((l) => !l.trim().startsWith('#') && l.includes(suite)),
  );
}

function plan() {
  const codename = debianCodename();
  const probe = engineSource(codename);
  try {
    return installPlan({ roles: ROLES, codename, installed: installedPackages(), sourcePresent: !!probe?.target && aptHasSuite(probe.target) });
  } catch (e) {
    fail(e.message);
  }
}

/**
 * Installs what is missing with apt-get (as root; others get the exact commands): LibreOffice from its source for
 * this release (bookworm-backports on Debian 12, added by set-up), an older LibreOffice upgraded, then the other
 * packages of the roles asked for. No service starts because of it: Debian's policy-rc.d hook refuses every start
 * while apt runs, and on a systemd machine the test tools' services (nginx, apache2) are disabled afterwards.
 */
function installDebianPackages() {
  const p = plan();
  if (p.commands.length === 0) return;
  const what = [...p.engine.map((n) => `${n}${p.target ? ` (${p.target})` : ''}`), ...p.missing].join(' ');
  if (process.getuid?.() !== 0) {
    fail(
      `${p.upgradeEngine ? 'LibreOffice is older than 25.2; ' : ''}missing Debian packages: ${what}.\nRun as root:\n${p.commands.map((c) => `  sudo sh -c ${JSON.stringify(c)}`).join('\n')}\nthen run this command again.`,
    );
  }
  step(`installing Debian packages: ${what}${p.upgradeEngine ? ' (upgrading LibreOffice to 25.2)' : ''}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (p.addSource) writeFileSync(p.sourceFile, p.sourceText);
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy)
    writeFileSync(policy, '#!/bin/sh\n# Written by Ode set-up while apt runs: no service starts because a package was installed.\nexit 101\n', { mode: 0o755 });
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const apt = ['install', '-y', '-qq', '--no-install-recommends'];
    if (p.engine.length) execFileSync('apt-get', [...apt, ...(p.target ? ['-t', p.target] : []), ...p.engine], { stdio: 'inherit', env });
    if (p.missing.length) execFileSync('apt-get', [...apt, ...p.missing], { stdio: 'inherit', env });
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
  const services = servicesOf(p.missing);
  if (services.length && existsSync('/run/systemd/system')) spawnSync('systemctl', ['disable', '--now', ...services], { stdio: 'inherit' });
  const after = plan();
  if (after.engine.length || after.missing.length) fail(`apt-get did not install: ${[...after.engine, ...after.missing].join(', ')}`);
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
        [
          `-env:UserInstallation=file://${join(work, 'profile')}`,
          '--headless',
          '--norestore',
          '--convert-to',
          format,
          '--outdir',
          out,
          join(root, 'daemon/server/demo-host/samples', source),
        ],
        { encoding: 'utf8', timeout: 120_000 },
      );
      if (r.status !== 0 || !existsSync(join(out, source.replace(/\.\w+$/, `.${format}`))))
        fail(`LibreOffice could not convert the sample ${source}: ${r.stderr || r.error?.message || `exit ${r.status}`}`);
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
