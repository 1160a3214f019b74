/**
 * The set-up's Debian plan (scripts/debian-packages.mjs), for the machines a newcomer has: what `npm start` and
 * `npm test` would install, from which source, on a fresh Debian 12 or 13, on a machine with LibreOffice 7.4, and
 * on a complete one. The expected lists are written here from the words (issue 15: LibreOffice 25.2 from
 * bookworm-backports; issue 19: no test tool and no service from `npm start`), not taken from the module.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the set-up (it runs before npm packages exist), no types.
import * as deb from '../../scripts/debian-packages.mjs';

interface Plan {
  missing: string[];
  engine: string[];
  upgradeEngine: boolean;
  addSource: boolean;
  target?: string;
  commands: string[];
}
const plan = (a: { roles: string[]; codename: string; installed?: Map<string, string>; sourcePresent?: boolean }): Plan =>
  deb.installPlan({ installed: new Map(), sourcePresent: false, ...a }) as Plan;

const TEST_TOOLS = ['chromium', 'nginx', 'apache2', 'tmux', 'poppler-utils', 'unoconv', 'openssl', 'python3-lxml', 'python3-uno'];
const LIBREOFFICE = ['libreoffice-core', 'libreoffice-writer', 'libreoffice-calc', 'libreoffice-impress', 'libreoffice-draw', 'libreofficekit-dev'];

describe('set-up plan: Debian packages', () => {
  it('npm start on a fresh Debian 12: LibreOffice from bookworm-backports (source added), server packages only, no test tool', () => {
    const p = plan({ roles: [], codename: 'bookworm' });
    expect(p.addSource).toBe(true);
    expect(p.target).toBe('bookworm-backports');
    expect([...p.engine].sort()).toEqual([...LIBREOFFICE].sort());
    for (const tool of TEST_TOOLS) expect([...p.engine, ...p.missing]).not.toContain(tool);
    expect(p.missing).toEqual(expect.arrayContaining(['fonts-noto-cjk', 'hunspell-en-us', 'bubblewrap', 'ca-certificates']));
    expect(p.commands.some((c) => c.includes('-t bookworm-backports') && c.includes('libreoffice-core'))).toBe(true);
    expect(p.commands[0]).toContain('/etc/apt/sources.list.d/');
  });

  it('npm test adds the test tools; the benchmarks add unoconv; python3-uno comes with the engine', () => {
    const t = plan({ roles: ['test'], codename: 'bookworm' });
    for (const tool of ['chromium', 'nginx', 'apache2', 'tmux', 'poppler-utils', 'openssl']) expect(t.missing).toContain(tool);
    expect(t.engine).toContain('python3-uno');
    expect(t.missing).not.toContain('unoconv');
    expect(plan({ roles: ['test', 'bench'], codename: 'bookworm' }).missing).toContain('unoconv');
  });

  it('a machine with LibreOffice 7.4 upgrades the whole LibreOffice set from backports', () => {
    const installed = new Map(LIBREOFFICE.map((n) => [n, '4:7.4.7-1+deb12u14']));
    const p = plan({ roles: [], codename: 'bookworm', installed, sourcePresent: true });
    expect(p.upgradeEngine).toBe(true);
    expect([...p.engine].sort()).toEqual([...LIBREOFFICE].sort());
    expect(p.addSource).toBe(false);
  });

  it('Debian 13 takes LibreOffice from its main archive; a complete machine has nothing to do', () => {
    const p = plan({ roles: [], codename: 'trixie' });
    expect(p.target).toBeUndefined();
    expect(p.addSource).toBe(false);
    expect(p.commands.join('\n')).not.toContain('-t ');
    const all = new Map<string, string>(
      (deb.PACKAGES as Array<{ name: string }>).map((x) => [
        x.name,
        x.name.startsWith('libreoffice') || x.name === 'python3-uno' ? '4:25.2.3-2+deb13u5~bpo12+1' : '1.0',
      ]),
    );
    expect(plan({ roles: ['test', 'bench'], codename: 'bookworm', installed: all, sourcePresent: true }).commands).toEqual([]);
  });

  it('an unsupported release is refused with the releases Ode is set up for', () => {
    expect(() => plan({ roles: [], codename: 'bullseye' })).toThrow(/Debian 12 \(bookworm\).*Debian 13 \(trixie\)/);
  });

  it('the services Debian would start are only test tools', () => {
    expect(deb.servicesOf(deb.packagesFor([]).map((p: { name: string }) => p.name))).toEqual([]);
    expect(deb.servicesOf(deb.packagesFor(['test']).map((p: { name: string }) => p.name)).sort()).toEqual(['apache2', 'haproxy', 'nginx']);
  });
});
