import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installSettings } from './settings-install.ts';

/** The profile layout the installer writes (LibreOffice's reading of it is tested in test/settings/settings-sessions.test.ts). */
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, 'src', name);
  writeFileSync(path, text);
  return path;
}

function setup(): string {
  dir = mkdtempSync(join(tmpdir(), 'ode-settings-install-'));
  mkdirSync(join(dir, 'src'));
  return join(dir, 'profile');
}

describe('installSettings', () => {
  it('places wordbooks and autotext, lists the wordbooks as active, and turns both xcu forms into items, user after shared', () => {
    const profile = setup();
    const report = installSettings(profile, {
      files: [
        {
          setting: 'xcu',
          name: 'a.xcu',
          source: 'shared',
          path: file(
            'a.xcu',
            '<oor:items xmlns:oor="http://openoffice.org/2001/registry"><item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseOpenCL" oor:op="fuse"><value>false</value></prop></item></oor:items>',
          ),
        },
        { setting: 'autotext', name: 'team.bau', source: 'shared', path: file('team.bau', 'bau') },
        { setting: 'wordbook', name: 'mine.dic', source: 'user', path: file('mine.dic', 'OOoUserDict1\nlang: <none>\ntype: positive\n---\nQuux\n') },
        {
          setting: 'xcu',
          name: 'b.xcu',
          source: 'user',
          path: file(
            'b.xcu',
            '<oor:component-data xmlns:oor="http://openoffice.org/2001/registry" oor:package="org.openoffice.Office" oor:name="Common"><node oor:name="Misc"><prop oor:name="UseOpenCL"><value>true</value></prop></node><node oor:name="Set"><node oor:name="member/1" oor:op="replace"><prop oor:name="P"><value>1</value></prop></node></node></oor:component-data>',
          ),
        },
      ],
    });
    expect(report.skipped).toEqual([]);
    expect(report.installed).toEqual(['shared/xcu/a.xcu', 'shared/autotext/team.bau', 'user/wordbook/mine.dic', 'user/xcu/b.xcu']);
    expect(readdirSync(join(profile, 'user', 'wordbook'))).toEqual(['mine.dic']);
    expect(readdirSync(join(profile, 'user', 'autotext'))).toEqual(['team.bau']);
    const xcu = readFileSync(join(profile, 'user', 'registrymodifications.xcu'), 'utf8');
    const paths = [...xcu.matchAll(/<item oor:path="([^"]+)">/g)].map((m) => m[1]);
    expect(paths).toEqual([
      '/org.openoffice.Office.Common/Misc',
      '/org.openoffice.Office.Common/Misc',
      '/org.openoffice.Office.Common/Set',
      '/org.openoffice.Office.Linguistic/General/DictionaryList',
    ]);
    // The user's value comes after the shared one: configmgr keeps the last.
    expect(xcu.indexOf('<value>false</value>')).toBeLessThan(xcu.indexOf('<value>true</value>'));
    expect(xcu).toContain('<node oor:name="member/1" oor:op="replace">');
    expect(xcu).toMatch(/<it>standard\.dic<\/it>.*<it>mine\.dic<\/it>/);
  });

  it('skips what it cannot install, naming why, and writes nothing for it', () => {
    const profile = setup();
    const report = installSettings(profile, {
      files: [
        { setting: 'wordbook', name: 'words.txt', source: 'user', path: file('words.txt', 'Quux') },
        { setting: 'wordbook', name: 'fake.dic', source: 'user', path: file('fake.dic', 'Quux\n') },
        { setting: 'xcu', name: 'broken.xcu', source: 'user', path: file('broken.xcu', '<oor:items') },
        { setting: 'xcu', name: 'other.xcu', source: 'user', path: file('other.xcu', '<html/>') },
        { setting: 'template', name: 't.ott', source: 'shared', path: file('t.ott', 'x') },
        { setting: 'autotext', name: '../evil.bau', source: 'shared', path: file('evil.bau', 'x') },
        { setting: 'autotext', name: 'gone.bau', source: 'shared', path: join(dir, 'src', 'missing.bau') },
      ],
    });
    expect(report.installed).toEqual([]);
    expect(report.skipped.map((s) => s.file)).toEqual([
      'user/wordbook/words.txt',
      'user/wordbook/fake.dic',
      'user/xcu/broken.xcu',
      'user/xcu/other.xcu',
      'shared/template/t.ott',
      'shared/autotext/../evil.bau',
      'shared/autotext/gone.bau',
    ]);
    expect(report.skipped[1].reason).toMatch(/OOoUserDict1/);
    expect(report.skipped[2].reason).toMatch(/not well-formed/);
    expect(report.skipped[3].reason).toMatch(/oor:items or oor:component-data/);
    expect(() => readdirSync(join(profile, 'user'))).toThrow();
  });
});
