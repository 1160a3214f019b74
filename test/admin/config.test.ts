/**
 * Admin API `config` against a real daemon (its own commented config file, watched by chokidar as `ode serve`
 * does): an edit changes, without a restart, what capabilities and convert-to answer (post_allow), the editor
 * page's CSP frame-ancestors, and which WOPI hosts may open the editor; the file keeps its comments. Bad edits
 * are refused with the reason and leave the file byte-identical and the live configuration unchanged.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCClientError } from '@trpc/client';
import { pino } from 'pino';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError } from '../../admin-api/backend.ts';
import { createContextInner } from '../../admin-api/context.ts';
import { appRouter } from '../../admin-api/router.ts';
import { createCallerFactory } from '../../admin-api/trpc.ts';
import { configPart } from '../../daemon/server/admin/config-edit.ts';
import { writeFileAtomic } from '../../daemon/server/admin/config-file.ts';
import type { AdminParts } from '../../daemon/server/admin/parts.ts';
import { loadConfig } from '../../daemon/server/config/load.ts';
import { ConfigStore } from '../../daemon/server/config/watch.ts';
import { createAdminClient, type AdminTestClient } from '../helpers/admin-client.ts';
import { CORPUS, postConvert } from '../helpers/convert-client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';

const LETTER = join(CORPUS, 'properties/documentProperties.docx');

let daemon: TestDaemon;
let admin: AdminTestClient;
const caller = () => createCallerFactory(appRouter)(createContextInner(daemon.server.admin.backend));

/** The commented file an operator wrote (values in the form the schema takes). */
function operatorFile(stateDir: string): string {
  return `# Ode configuration of the admin config test.
# Every comment here must survive an edit made through the admin API.
state_dir: ${stateDir}   # temp state
kits:
  prespawn: 1
  convert_concurrency: 1
net:
  # Who may call convert-to: loopback only here.
  post_allow:
    host:
      - 127\\.\\d+\\.\\d+\\.\\d+   # IPv4 loopback
      - ::1
  # The editor page's CSP (spec: Authentication 6).
  content_security_policy: "img-src 'self' https://images.example.org; frame-ancestors https://old.example.org"
storage:
  wopi:
    # Hosts that may open the editor.
    hosts: [cloud\\.example\\.invalid]
`;
}

/** POSTs the editor page for `wopiSrc`: its status and CSP header. */
async function editorPage(wopiSrc: string): Promise<{ status: number; csp: string | null }> {
  const res = await fetch(`${daemon.url}/browser/${daemon.server.context.versionHash}/ode.html?WOPISrc=${encodeURIComponent(wopiSrc)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'access_token=t&access_token_ttl=0',
  });
  await res.arrayBuffer();
  return { status: res.status, csp: res.headers.get('content-security-policy') };
}

async function convertAvailable(): Promise<boolean> {
  const caps = (await (await fetch(`${daemon.url}/hosting/capabilities`)).json()) as { 'convert-to': { available: boolean } };
  return caps['convert-to'].available;
}

/** A refused edit's problems, through the HTTP client (asserting the code). */
async function refusedOverHttp(run: () => Promise<unknown>): Promise<string[]> {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCClientError);
  const data = (err as TRPCClientError<never>).data as unknown as { adminCode: string; problems: string[]; httpStatus: number };
  expect(data).toMatchObject({ adminCode: 'invalid_config', httpStatus: 400 });
  return data.problems;
}

beforeAll(async () => {
  daemon = await startDaemon();
  writeFileSync(daemon.configFile, operatorFile(daemon.store.get().state_dir));
  expect(daemon.store.reload()).toBe(true);
  await daemon.store.watch();
  admin = createAdminClient(daemon.adminUrl!, daemon.adminToken);
}, 120_000);
afterAll(async () => {
  await admin?.close();
  await daemon?.stop();
});

describe('config.get', () => {
  it('gives the file, the values in force and the editable lists (frame-ancestors parsed out of the CSP)', async () => {
    const cfg = await caller().config.get();
    expect(cfg.file).toBe(daemon.configFile);
    expect(cfg.editable).toEqual({
      contentSecurityPolicy: "img-src 'self' https://images.example.org; frame-ancestors https://old.example.org",
      frameAncestors: ['https://old.example.org'],
      postAllowHosts: ['127\\.\\d+\\.\\d+\\.\\d+', '::1'],
      wopiHosts: ['cloud\\.example\\.invalid'],
    });
    expect((cfg.values.kits as { prespawn: number }).prespawn).toBe(1);
    expect(await admin.client.config.get.query()).toEqual(cfg);
  });
});

describe('config.edit applies live and keeps the file commented', () => {
  it('post_allow: without loopback convert-to answers 403 and capabilities say unavailable; restored, 200', async () => {
    expect(await convertAvailable()).toBe(true);
    const original = readFileSync(daemon.configFile, 'utf8');
    // Adding an item keeps the others' nodes, with their comments, and the lines the edit did not touch.
    await caller().config.edit({ key: 'postAllowHosts', value: ['127\\.\\d+\\.\\d+\\.\\d+', '::1', '192\\.168\\.\\d+\\.\\d+'] });
    const added = readFileSync(daemon.configFile, 'utf8');
    expect(added).toContain('- 127\\.\\d+\\.\\d+\\.\\d+ # IPv4 loopback\n');
    expect(added).toContain(`content_security_policy: "img-src 'self' https://images.example.org; frame-ancestors https://old.example.org"\n`);
    expect(added).toContain('hosts: [cloud\\.example\\.invalid]\n');
    // The only other change the yaml library makes: one space before a trailing comment.
    const lines = (t: string) => t.split('\n').map((l) => l.replace(/\s+#/, ' #'));
    expect(lines(added).filter((l) => !lines(original).includes(l))).toEqual(['      - 192\\.168\\.\\d+\\.\\d+']);
    expect(lines(original).filter((l) => !lines(added).includes(l))).toEqual([]);
    const edited = await admin.client.config.edit.mutate({ key: 'postAllowHosts', value: ['10\\.\\d+\\.\\d+\\.\\d+'] });
    expect(edited.editable.postAllowHosts).toEqual(['10\\.\\d+\\.\\d+\\.\\d+']);
    expect(await convertAvailable()).toBe(false);
    expect((await postConvert(daemon.url, '/ode/convert-to/pdf', LETTER)).status).toBe(403);
    const text = readFileSync(daemon.configFile, 'utf8');
    expect(parseYaml(text).net.post_allow.host).toEqual(['10\\.\\d+\\.\\d+\\.\\d+']);
    expect(text).toContain('# Who may call convert-to: loopback only here.');
    expect(text).toContain('# Every comment here must survive an edit made through the admin API.');

    await caller().config.edit({ key: 'postAllowHosts', value: ['127\\.\\d+\\.\\d+\\.\\d+', '::1'] });
    expect(await convertAvailable()).toBe(true);
    const r = await postConvert(daemon.url, '/ode/convert-to/pdf', LETTER);
    expect(r.status).toBe(200);
    expect(daemon.logBuffer.recent(1000, 'info').some((l) => l.msg === 'admin: configuration edited and applied' && l.fields.key === 'postAllowHosts')).toBe(
      true,
    );
  });

  it("frame-ancestors: the editor page's CSP header changes at once; the CSP's other directives stay", async () => {
    const before = await editorPage('http://127.0.0.1:1/wopi/files/abc');
    expect(before.csp).toMatch(/frame-ancestors https:\/\/old\.example\.org http:\/\/127\.0\.0\.1:1(;|$)/);
    const edited = await caller().config.edit({ key: 'frameAncestors', value: ['https://new.example.org', 'https://*.corp.example.org'] });
    expect(edited.editable.frameAncestors).toEqual(['https://new.example.org', 'https://*.corp.example.org']);
    expect(edited.editable.contentSecurityPolicy).toBe(
      "img-src 'self' https://images.example.org; frame-ancestors https://new.example.org https://*.corp.example.org",
    );
    const after = await editorPage('http://127.0.0.1:1/wopi/files/abc');
    expect(after.csp).toMatch(/frame-ancestors https:\/\/new\.example\.org https:\/\/\*\.corp\.example\.org http:\/\/127\.0\.0\.1:1(;|$)/);
    expect(after.csp).not.toContain('old.example.org');
    expect(after.csp).toContain('https://images.example.org');
    const text = readFileSync(daemon.configFile, 'utf8');
    expect(text).toContain('frame-ancestors https://new.example.org https://*.corp.example.org');
    expect(text).toContain("# The editor page's CSP (spec: Authentication 6).");

    // The whole policy, over HTTP.
    await admin.client.config.edit.mutate({ key: 'contentSecurityPolicy', value: "frame-ancestors 'self' https://host.example.org;img-src https:" });
    const whole = await editorPage('http://127.0.0.1:1/wopi/files/abc');
    expect(whole.csp).toMatch(/frame-ancestors 'self' https:\/\/host\.example\.org http:\/\/127\.0\.0\.1:1/);
    expect(whole.csp).not.toContain('images.example.org');
  });

  it('storage.wopi.hosts: which hosts may open the editor changes at once', async () => {
    expect((await editorPage('https://cloud.example.invalid/wopi/files/abc')).status).toBe(200);
    expect((await editorPage('https://docs.example.invalid/wopi/files/abc')).status).toBe(403);
    await admin.client.config.edit.mutate({ key: 'wopiHosts', value: ['docs\\.example\\.invalid'] });
    expect((await editorPage('https://cloud.example.invalid/wopi/files/abc')).status).toBe(403);
    expect((await editorPage('https://docs.example.invalid/wopi/files/abc')).status).toBe(200);
    const text = readFileSync(daemon.configFile, 'utf8');
    expect(parseYaml(text).storage.wopi.hosts).toEqual(['docs\\.example\\.invalid']);
    expect(text).toContain('# Hosts that may open the editor.');
    // The watcher's reload of our own write (chokidar) changes nothing: the value in force stays.
    await new Promise((r) => setTimeout(r, 500));
    expect(daemon.store.get().storage.wopi.hosts).toEqual(['docs\\.example\\.invalid']);
  });
});

describe('config.edit refuses bad values: the reason, a log line, the file byte-identical, nothing applied', () => {
  const cases: Array<{ what: string; edit: Parameters<ReturnType<typeof caller>['config']['edit']>[0]; problem: RegExp }> = [
    {
      what: 'an invalid regular expression',
      edit: { key: 'postAllowHosts', value: ['127\\.0\\.0\\.1', '(unclosed'] },
      problem: /^net\.post_allow\.host\[1\]: "\(unclosed": not a valid regular expression/,
    },
    { what: 'an empty pattern', edit: { key: 'wopiHosts', value: [''] }, problem: /^storage\.wopi\.hosts\[0\]: "": an empty pattern/ },
    { what: 'a duplicate pattern', edit: { key: 'wopiHosts', value: ['a\\.example\\.org', 'a\\.example\\.org'] }, problem: /listed twice/ },
    {
      what: 'a lone * in frame-ancestors',
      edit: { key: 'frameAncestors', value: ['https://ok.example.org', '*'] },
      problem: /frame-ancestors\[1\]: "\*": a wildcard lets any site embed the editor/,
    },
    { what: 'https: in frame-ancestors', edit: { key: 'frameAncestors', value: ['https:'] }, problem: /wildcard/ },
    { what: 'a nonce in frame-ancestors', edit: { key: 'frameAncestors', value: ["'nonce-abc'"] }, problem: /frame-ancestors takes a scheme/ },
    {
      what: 'a bad CSP source',
      edit: { key: 'contentSecurityPolicy', value: 'img-src https://ok.example.org bad^source' },
      problem: /^net\.content_security_policy img-src\[1\]: "bad\^source": not a CSP source expression/,
    },
    {
      what: 'an unknown directive',
      edit: { key: 'contentSecurityPolicy', value: 'frame-ancestor https://x.example.org' },
      problem: /"frame-ancestor": not a CSP Level 3 directive/,
    },
    {
      what: "'none' with other sources",
      edit: { key: 'contentSecurityPolicy', value: "img-src 'none' https://x.example.org" },
      problem: /'none' must stand alone/,
    },
    {
      what: 'a hash outside script/style',
      edit: { key: 'contentSecurityPolicy', value: "img-src 'sha256-abc='" },
      problem: /only allowed in default-src, script-src\* and style-src\*/,
    },
    { what: '* in a whole policy', edit: { key: 'contentSecurityPolicy', value: 'frame-ancestors *' }, problem: /wildcard/ },
  ];

  for (const c of cases) {
    it(`refuses ${c.what}`, async () => {
      const bytes = readFileSync(daemon.configFile);
      const live = JSON.stringify(daemon.store.get());
      const warnsBefore = daemon.logBuffer.recent(5000, 'warn').filter((l) => l.msg.startsWith('admin: configuration edit refused')).length;
      const problems = await refusedOverHttp(() => admin.client.config.edit.mutate(c.edit));
      expect(
        problems.some((p) => c.problem.test(p)),
        problems.join('\n'),
      ).toBe(true);
      await expect(caller().config.edit(c.edit)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      expect(readFileSync(daemon.configFile).equals(bytes)).toBe(true);
      expect(JSON.stringify(daemon.store.get())).toBe(live);
      expect(daemon.logBuffer.recent(5000, 'warn').filter((l) => l.msg.startsWith('admin: configuration edit refused')).length).toBe(warnsBefore + 2);
    });
  }

  it('accepts what CSP allows: host sources with *. and ports, schemes, keywords and nonces where they belong', async () => {
    const policy =
      "default-src 'self'; script-src 'self' 'nonce-QUJD' 'sha256-AbC+/9=' 'strict-dynamic'; img-src https: data: *.example.org:8443 https://cdn.example.org/images/; frame-ancestors 'self' https://*.example.org http://10.0.0.5:8080; upgrade-insecure-requests";
    const edited = await caller().config.edit({ key: 'contentSecurityPolicy', value: policy });
    expect(edited.editable.frameAncestors).toEqual(["'self'", 'https://*.example.org', 'http://10.0.0.5:8080']);
    expect(parseYaml(readFileSync(daemon.configFile, 'utf8')).net.content_security_policy).toBe(policy);
  });
});

describe('config.edit without a file, and a failed write', () => {
  it('no_config_file when Ode runs on defaults only', async () => {
    const store = new ConfigStore(loadConfig(undefined, {}).config, undefined, pino({ level: 'silent' }));
    const part = configPart({ config: store, log: pino({ level: 'silent' }) } as Pick<AdminParts, 'config' | 'log'> as AdminParts);
    const err = await part.editConfig({ key: 'wopiHosts', value: ['a\\.example\\.org'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdminError);
    expect(err).toMatchObject({ code: 'no_config_file' });
  });

  it('an atomic write that fails leaves the target as it was and no temp file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ode-atomic-'));
    try {
      // A directory in the file's place: the rename fails (also as root, where permissions would not stop it).
      const target = join(dir, 'ode.yaml');
      mkdirSync(target);
      writeFileSync(join(target, 'keep'), 'x');
      expect(() => writeFileAtomic(target, 'net: {}\n')).toThrow();
      expect(readdirSync(dir)).toEqual(['ode.yaml']);
      expect(readFileSync(join(target, 'keep'), 'utf8')).toBe('x');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
