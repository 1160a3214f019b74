import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';
import { SettingsHost } from '../helpers/settings-host.ts';

/**
 * Settings in editing sessions (docs/settings.md, "Settings in editing sessions"): a real daemon with real kits
 * opens documents of a fake WOPI host whose CheckFileInfo names a real settings host serving files from disk
 * (test/helpers/settings-host.ts). What LibreOffice makes of the settings is read back through the editor
 * protocol, as a browser would see it:
 * - a wordbook: right-clicking a word LibreOffice does not know gives the spelling context menu (its entries are
 *   `.uno:SpellCheckApplySuggestion` / `.uno:SpellCheckIgnore...`); a known word gives the plain text menu.
 *   LibreOffice checks the clicked word when it builds the menu, so no waiting for the background spell check.
 * - an xcu: `/org.openoffice.Office.Writer/Content/NonprintingCharacter/MetaCharacters` is the formatting-marks
 *   option; LibreOffice reports it as the state of `.uno:ControlCodes` when the document loads.
 */
const WORD = 'Zorbleflax';
/** A flat ODT: one US-English paragraph holding the nonsense word first, large enough to hit with the mouse. */
const FODT = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:styles><style:default-style style:family="paragraph"><style:text-properties fo:language="en" fo:country="US" fo:font-size="24pt"/></style:default-style></office:styles>
 <office:body><office:text><text:p>${WORD} house</text:p></office:text></office:body>
</office:document>
`);
/** Inside the word: the default page's top-left margin is 2 cm (1134 twips); the first line is 24 pt high. */
const AT_WORD = { x: 1600, y: 1600 };

const dic = (...words: string[]) => ['OOoUserDict1', 'lang: <none>', 'type: positive', '---', ...words, ''].join('\n');
/** The formatting-marks option in the officecfg form (oor:component-data). */
const marksComponent = (on: boolean) => `<?xml version="1.0" encoding="UTF-8"?>
<oor:component-data xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" oor:package="org.openoffice.Office" oor:name="Writer">
 <node oor:name="Content"><node oor:name="NonprintingCharacter"><prop oor:name="MetaCharacters" oor:type="xs:boolean"><value>${on}</value></prop></node></node>
</oor:component-data>
`;
/** The same option in the registrymodifications form (oor:items). */
const marksItems = (on: boolean) => `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Writer/Content/NonprintingCharacter"><prop oor:name="MetaCharacters" oor:op="fuse"><value>${on}</value></prop></item>
</oor:items>
`;

let daemon: TestDaemon;
let wopi: FakeWopiHost;
let settings: SettingsHost;
const clients: EditorClient[] = [];
let nextId = 1;

beforeAll(async () => {
  wopi = await FakeWopiHost.start();
  settings = await SettingsHost.start();
  daemon = await startDaemon({ kits: { prespawn: 1, max: 3 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } });
  const key = publicKeyFromDiscovery(await (await fetch(`${daemon.url}/hosting/discovery`)).text());
  wopi.proofKey = key;
  settings.proofKey = key;
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await daemon?.stop();
  await wopi?.stop();
  await settings?.stop();
});

/** Opens a new document with `info` merged into its CheckFileInfo; resolves once the view is live. */
async function openDoc(info: Record<string, unknown>): Promise<{ client: EditorClient; id: string }> {
  const id = `settings${nextId++}`;
  const src = wopi.addFile(id, `${id}.fodt`, FODT, { UserCanWrite: true, UserId: 'u-1', UserFriendlyName: 'Ada', ...info });
  const { client } = await EditorClient.open(daemon.url, src, { token: wopi.token });
  clients.push(client);
  return { client, id };
}

/** Closes a view (the document unloads and its kit is retired). */
async function closeDoc(client: EditorClient): Promise<void> {
  client.close();
  await client.closed().catch(() => undefined);
}

/** The state LibreOffice reported for `.uno:ControlCodes` (formatting marks) after the load. */
async function controlCodes(client: EditorClient): Promise<string> {
  return (await client.next('stateChanged', (m) => m.command === '.uno:ControlCodes')).value;
}

/** The commands of the context menu LibreOffice sends for a right click on the word. */
async function menuAtWord(client: EditorClient): Promise<string[]> {
  const from = client.messages.length;
  for (const event of ['buttondown', 'buttonup'] as const) client.send({ type: 'mouse', event, x: AT_WORD.x, y: AT_WORD.y, count: 1, buttons: 4, modifier: 0 });
  const menu = await client.next('contextMenu', () => true, 30_000, from);
  const commands: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.command === 'string') commands.push(o.command);
      Object.values(o).forEach(walk);
    }
  };
  walk(menu.menu);
  return commands;
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const isSpelling = (c: string) => c.startsWith('.uno:SpellCheck');
const logLines = (msg: string) => daemon.logBuffer.recent(5000, 'debug').filter((l) => l.msg.includes(msg));

describe('settings in editing sessions', () => {
  it('without settings, LibreOffice rejects the word and shows no formatting marks', async () => {
    const { client } = await openDoc({});
    expect(await controlCodes(client)).toBe('false');
    const menu = await menuAtWord(client);
    expect(menu.filter(isSpelling).length, `menu: ${menu.join(' ')}`).toBeGreaterThan(0);
    await closeDoc(client);
  }, 120_000);

  it('a wordbook from UserSettings makes spell checking accept the word; the user xcu wins over the shared one', async () => {
    settings.put('userconfig', 'wordbook', 'ode-words.dic', dic(WORD));
    settings.put('userconfig', 'xcu', 'marks.xcu', marksComponent(true));
    settings.put('systemconfig', 'xcu', 'shared-marks.xcu', marksItems(false));
    settings.put('systemconfig', 'autotext', 'team.bau', Buffer.from('not really an autotext zip, but a .bau'));
    const before = settings.requests.length;
    const { client } = await openDoc({
      UserSettings: { url: settings.settingsUrl('userconfig'), stamp: 'u1' },
      SharedSettings: { url: settings.settingsUrl('systemconfig'), stamp: 's1' },
    });
    expect(await controlCodes(client)).toBe('true');
    const menu = await menuAtWord(client);
    expect(menu.filter(isSpelling), `menu: ${menu.join(' ')}`).toEqual([]);
    expect(menu).toContain('.uno:Paste');

    // Both listings and every file, each with the token of its kind, the Bearer header and a valid proof.
    const made = settings.requests.slice(before);
    expect(
      made
        .filter((r) => r.operation === 'List')
        .map((r) => r.query.get('type'))
        .sort(),
    ).toEqual(['systemconfig', 'userconfig']);
    expect(
      made
        .filter((r) => r.operation === 'GetSettingFile')
        .map((r) => r.path)
        .sort(),
    ).toEqual([
      '/wopi/settings/file/systemconfig/autotext/team.bau',
      '/wopi/settings/file/systemconfig/xcu/shared-marks.xcu',
      '/wopi/settings/file/userconfig/wordbook/ode-words.dic',
      '/wopi/settings/file/userconfig/xcu/marks.xcu',
    ]);
    for (const r of made) {
      expect(r.status, r.path).toBe(200);
      expect(r.headers.authorization).toBe(`Bearer ${r.token}`);
      expect(r.proofValid, r.path).toBe(true);
    }
    const installed = logLines('settings installed into the kit profile').at(-1)?.fields.installed;
    expect(installed).toEqual(['shared/autotext/team.bau', 'shared/xcu/shared-marks.xcu', 'user/wordbook/ode-words.dic', 'user/xcu/marks.xcu']);
    await closeDoc(client);
  }, 120_000);

  it('the same stamps load nothing again; a changed stamp fetches the listing and only the changed file', async () => {
    const refs = (user: string) => ({
      UserSettings: { url: settings.settingsUrl('userconfig'), stamp: user },
      SharedSettings: { url: settings.settingsUrl('systemconfig'), stamp: 's1' },
    });
    let before = settings.requests.length;
    const again = await openDoc(refs('u1'));
    expect(await controlCodes(again.client)).toBe('true');
    expect((await menuAtWord(again.client)).filter(isSpelling)).toEqual([]);
    expect(settings.requests.slice(before)).toEqual([]);
    await closeDoc(again.client);

    // The user replaces the wordbook (its file stamp changes) and the host says so with a new UserSettings stamp.
    settings.put('userconfig', 'wordbook', 'ode-words.dic', dic('Quuxotic'));
    before = settings.requests.length;
    const changed = await openDoc(refs('u2'));
    const made = settings.requests.slice(before);
    expect(made.map((r) => `${r.operation} ${r.operation === 'List' ? r.query.get('type') : r.path}`)).toEqual([
      'List userconfig',
      'GetSettingFile /wopi/settings/file/userconfig/wordbook/ode-words.dic',
    ]);
    // The new wordbook no longer holds the word: LibreOffice rejects it again.
    expect((await menuAtWord(changed.client)).filter(isSpelling).length).toBeGreaterThan(0);
    await closeDoc(changed.client);
  }, 180_000);

  it('a failing settings fetch is logged with its reason and the document opens with defaults', async () => {
    const cases: Array<{ why: RegExp; info: Record<string, unknown>; script?: () => void }> = [
      {
        why: /answered the list request with 404/,
        info: { UserSettings: { url: settings.settingsUrl('userconfig'), stamp: 'gone' } },
        script: () => settings.answer('List', { status: 404, body: { status: 'error', message: 'no settings' } }),
      },
      {
        why: /not the settings fetch JSON/,
        info: { UserSettings: { url: settings.settingsUrl('userconfig'), stamp: 'bad-json' } },
        script: () => settings.answer('List', { status: 200, body: 'not json' }),
      },
      {
        why: /ECONNREFUSED/,
        info: { UserSettings: { url: `http://127.0.0.1:${await closedPort()}/wopi/settings?access_token=x&type=userconfig&fileId=-1`, stamp: 'down' } },
      },
    ];
    for (const c of cases) {
      c.script?.();
      const seen = logLines('settings fetch failed').length;
      const { client } = await openDoc(c.info);
      expect(await controlCodes(client)).toBe('false');
      const lines = logLines('settings fetch failed');
      expect(lines.length).toBe(seen + 1);
      expect(String(lines.at(-1)?.fields.err)).toMatch(c.why);
      await closeDoc(client);
    }
  }, 180_000);
});
