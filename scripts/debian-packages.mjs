// The Debian packages Ode installs, by role, and the plan that installs them (run by scripts/setup.mjs). Plain
// JavaScript: it runs before any npm package exists. The plan is computed by pure functions, so a test can check it
// for a fresh Debian 12 or 13 machine, one with LibreOffice 7.4, and a complete one, without touching apt.
//
// Roles: `server` is what `npm start` installs (LibreOffice 25.2, its kit headers, fonts, dictionaries, the kits'
// sandbox); `test` is added by `npm test` (browser, proxies, PDF and TLS tools); `bench` by the benchmarks that
// compare with other converters. LibreOffice comes from bookworm-backports on Debian 12 and from the main archive on
// Debian 13 and later; `engine` packages must all come from that one source, at the same version.

/** The LibreOffice release Ode is built against: older ones are upgraded by set-up and refused by the daemon. */
export const MIN_ENGINE = [25, 2];

/** One package: its name, its role, whether it is part of LibreOffice's own versioned set, and why Ode needs it. */
export const PACKAGES = [
  { name: 'libreoffice-core', role: 'server', engine: true, why: 'LibreOffice, driven by the kits through LibreOfficeKit' },
  { name: 'libreoffice-writer', role: 'server', engine: true, why: 'text documents' },
  { name: 'libreoffice-calc', role: 'server', engine: true, why: 'spreadsheets' },
  { name: 'libreoffice-impress', role: 'server', engine: true, why: 'presentations' },
  { name: 'libreoffice-draw', role: 'server', engine: true, why: 'drawings and PDF' },
  { name: 'libreofficekit-dev', role: 'server', engine: true, why: 'the LibreOfficeKit headers the addon is built against' },
  { name: 'fonts-dejavu', role: 'server', why: 'fonts documents expect' },
  { name: 'fonts-liberation2', role: 'server', why: 'metric-compatible Arial, Times New Roman, Courier New' },
  { name: 'fonts-crosextra-carlito', role: 'server', why: 'metric-compatible Calibri' },
  { name: 'fonts-crosextra-caladea', role: 'server', why: 'metric-compatible Cambria' },
  { name: 'fonts-noto-cjk', role: 'server', why: 'Chinese, Japanese and Korean text (else empty boxes)' },
  { name: 'hunspell-en-us', role: 'server', why: 'spelling dictionary (the settings tests check a wordbook against it)' },
  // The common languages' dictionaries (issue 23): LibreOffice checks each text with the dictionary of its
  // language (the document's, a paragraph's), so a British or French document gets no underline without them.
  { name: 'hunspell-en-gb', role: 'server', why: 'spelling dictionary, British English' },
  { name: 'hunspell-fr', role: 'server', why: 'spelling dictionary, French' },
  { name: 'hunspell-de-de', role: 'server', why: 'spelling dictionary, German (Germany)' },
  { name: 'hunspell-es', role: 'server', why: 'spelling dictionary, Spanish' },
  { name: 'hunspell-it', role: 'server', why: 'spelling dictionary, Italian' },
  { name: 'hunspell-pt-pt', role: 'server', why: 'spelling dictionary, Portuguese (Portugal)' },
  { name: 'hunspell-pt-br', role: 'server', why: 'spelling dictionary, Portuguese (Brazil)' },
  { name: 'hunspell-nl', role: 'server', why: 'spelling dictionary, Dutch' },
  { name: 'ca-certificates', role: 'server', why: 'the system CAs Ode verifies WOPI hosts against' },
  { name: 'bubblewrap', role: 'server', why: "the kits' sandbox (docs/security.md)" },
  { name: 'libseccomp-dev', role: 'server', why: "libseccomp, which the kits' seccomp filter is built with" },
  { name: 'poppler-utils', role: 'test', why: 'pdfinfo/pdftoppm: the tests read PDFs with them' },
  { name: 'chromium', role: 'test', why: 'the browser of the editor tests (playwright-core drives it)' },
  { name: 'tmux', role: 'test', why: "the dashboard's pseudo-terminal test" },
  { name: 'nginx', role: 'test', service: 'nginx', why: 'test/deploy runs docs/deploy/nginx.conf in front of Ode' },
  { name: 'apache2', role: 'test', service: 'apache2', why: 'test/deploy runs docs/deploy/apache.conf in front of Ode' },
  { name: 'haproxy', role: 'test', service: 'haproxy', why: 'test/cluster runs docs/deploy/haproxy.cfg in front of three Ode nodes' },
  { name: 'python3-lxml', role: 'test', why: "test/hosts: the strict parser Collabora's Python SDK example reads discovery with" },
  { name: 'python3-uno', role: 'test', engine: true, why: "the structure tests' independent oracle (LibreOffice's document model over UNO)" },
  { name: 'openssl', role: 'test', why: 'test/tls checks certificates with it' },
  { name: 'unzip', role: 'test', why: "Info-ZIP's unzip -t: the structure tests' second zip reader" },
  { name: 'unoconv', role: 'bench', why: 'the baseline of test/bench/convert' },
];

/** The packages of the given roles (`server` is always included). */
export function packagesFor(roles) {
  const want = new Set(['server', ...roles]);
  return PACKAGES.filter((p) => want.has(p.role));
}

/** The apt source that carries LibreOffice 25.2 on Debian 12, written by set-up (deb822). */
export const BACKPORTS_FILE = '/etc/apt/sources.list.d/ode-bookworm-backports.sources';
export const BACKPORTS_SOURCE = `# Written by Ode's set-up (scripts/setup.mjs): LibreOffice 25.2 for Debian 12 comes from bookworm-backports.
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`;

/**
 * Where LibreOffice comes from on a Debian release (VERSION_CODENAME of /etc/os-release):
 * `{ target: 'bookworm-backports', sourceFile, sourceText }` on Debian 12, `{}` (the main archive) on Debian 13
 * (trixie) and later, undefined for anything else.
 */
export function engineSource(codename) {
  if (codename === 'bookworm') return { target: 'bookworm-backports', sourceFile: BACKPORTS_FILE, sourceText: BACKPORTS_SOURCE };
  if (['trixie', 'forky', 'sid'].includes(codename)) return {};
  return undefined;
}

/** The upstream major.minor of a Debian version string (`4:25.2.3-2+deb13u5~bpo12+1` -> [25, 2]), or undefined. */
export function upstreamVersion(debVersion) {
  const m = /^(?:\d+:)?(\d+)\.(\d+)/.exec(debVersion ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** True when `v` ([major, minor]) is at least MIN_ENGINE. */
export function engineRecentEnough(v) {
  return !!v && (v[0] > MIN_ENGINE[0] || (v[0] === MIN_ENGINE[0] && v[1] >= MIN_ENGINE[1]));
}

/**
 * The plan for one machine: `installed` maps a package name to its installed Debian version (absent: not
 * installed). Returns `{ missing, engine, upgradeEngine, addSource, commands }`: `engine` the LibreOffice-set
 * packages to install from the engine source (missing ones, or all of them when the installed LibreOffice is older
 * than MIN_ENGINE), `missing` the others, and the shell commands a root user runs (also printed for others).
 * Throws when the release is not one Ode is set up for.
 */
export function installPlan({ roles, codename, installed, sourcePresent }) {
  const src = engineSource(codename);
  if (!src)
    throw new Error(
      `Debian release "${codename || 'unknown'}" is not one Ode is set up for: Debian 12 (bookworm) with bookworm-backports, or Debian 13 (trixie).`,
    );
  const wanted = packagesFor(roles);
  const engineInstalled = upstreamVersion(installed.get('libreoffice-core'));
  const upgradeEngine = engineInstalled !== undefined && !engineRecentEnough(engineInstalled);
  const engineWanted = wanted.filter((p) => p.engine);
  // An old LibreOffice is replaced as a whole set (its packages depend on each other at one version).
  const engine = engineWanted.filter((p) => upgradeEngine || !installed.has(p.name)).map((p) => p.name);
  if (upgradeEngine) for (const p of PACKAGES) if (p.engine && installed.has(p.name) && !engine.includes(p.name)) engine.push(p.name);
  const missing = wanted.filter((p) => !p.engine && !installed.has(p.name)).map((p) => p.name);
  const addSource = !!src.sourceFile && !sourcePresent && engine.length > 0;
  const commands = [];
  if (addSource) commands.push(`printf '%s' '${src.sourceText.replace(/'/g, "'\\''")}' > ${src.sourceFile}`);
  if (engine.length || missing.length) commands.push('apt-get update');
  const apt = 'DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends';
  // The engine first: packages such as python3-uno or unoconv depend on the LibreOffice they find.
  if (engine.length) commands.push(`${apt}${src.target ? ` -t ${src.target}` : ''} ${engine.join(' ')}`);
  if (missing.length) commands.push(`${apt} ${missing.join(' ')}`);
  return { missing, engine, upgradeEngine, addSource, target: src.target, sourceFile: src.sourceFile, sourceText: src.sourceText, commands };
}

/** The services the given packages would start (Debian starts a daemon as soon as its package is installed). */
export function servicesOf(names) {
  return PACKAGES.filter((p) => p.service && names.includes(p.name)).map((p) => p.service);
}
