#!/usr/bin/env node
// Builds the LibreOfficeKit addon (daemon/native/build/Release/ode_lok.node) with node-gyp, only when it is
// missing or older than binding.gyp or any file in src/. Called by scripts/setup.mjs; safe to run by hand.
// Exits non-zero with the command that fixes the problem when a build prerequisite is missing.
// Plain JavaScript: it runs before TypeScript tooling is needed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const nativeDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(nativeDir, '..', '..');
const addon = join(nativeDir, 'build', 'Release', 'ode_lok.node');
const lokHeader = '/usr/include/LibreOfficeKit/LibreOfficeKit.h';

function say(msg) {
  process.stderr.write(`[native] ${msg}\n`);
}

function fail(msg) {
  say(msg);
  process.exit(1);
}

/** Newest modification time (ms) of binding.gyp and every file under src/. */
function newestSource() {
  let newest = statSync(join(nativeDir, 'binding.gyp')).mtimeMs;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(join(nativeDir, 'src'));
  return newest;
}

function upToDate() {
  return existsSync(addon) && statSync(addon).mtimeMs >= newestSource();
}

function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function checkPrerequisites() {
  if (!existsSync(lokHeader)) {
    fail(`${lokHeader} is missing. Install the LibreOfficeKit headers: apt-get install -y --no-install-recommends libreofficekit-dev`);
  }
  const tools = { 'g++': 'g++', make: 'make', python3: 'python3' };
  const missing = Object.keys(tools).filter((t) => !has(t));
  if (missing.length) fail(`missing build tools: ${missing.join(', ')}. Install them: apt-get install -y ${missing.map((t) => tools[t]).join(' ')}`);
  const gyp = join(repoRoot, 'node_modules', '.bin', 'node-gyp');
  if (!existsSync(gyp)) fail(`${relative(repoRoot, gyp)} is missing: run npm ci in ${repoRoot}`);
  if (!existsSync(join(repoRoot, 'node_modules', 'node-addon-api'))) fail(`node-addon-api is missing: run npm ci in ${repoRoot}`);
  return gyp;
}

/**
 * node-gyp downloads Node's headers unless told where they are. Debian's nodejs-dev puts them in /usr/include/node;
 * use them when they are this Node's version (an addon built against them loads in this Node).
 */
function nodedirArgs() {
  const versionHeader = '/usr/include/node/node_version.h';
  if (!existsSync(versionHeader)) return [];
  const text = readFileSync(versionHeader, 'utf8');
  const part = (name) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1];
  const version = `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
  return version === process.version ? ['--nodedir=/usr'] : [];
}

if (upToDate()) {
  say(`${relative(repoRoot, addon)} is up to date`);
  process.exit(0);
}
const gyp = checkPrerequisites();
say(`building ${relative(repoRoot, addon)} (node-gyp rebuild, about 15 s)`);
const started = Date.now();
const r = spawnSync(gyp, ['rebuild', '--directory', nativeDir, '--jobs', '2', ...nodedirArgs()], {
  cwd: repoRoot,
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (r.status !== 0 || !existsSync(addon)) {
  fail(`node-gyp failed (exit ${r.status ?? r.signal}). Check the compiler output above; prerequisites: libreofficekit-dev, g++, make, python3.`);
}
say(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
