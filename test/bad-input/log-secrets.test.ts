import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/convert-client.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import { FakeWopiHost } from '../helpers/fake-wopi-host.ts';
import { freePort } from '../helpers/net.ts';
import { startServe, useServeScratch, writeServeConfig } from '../helpers/serve-process.ts';

const DOCX = readFileSync(join(CORPUS, 'properties/documentProperties.docx'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens `src` with `token` and waits for the view to be live or refused (the error paths are what is exercised). */
async function tryOpen(daemonUrl: string, src: string, token: string, timeoutMs = 30_000): Promise<string> {
  let client: EditorClient | undefined;
  try {
    client = await EditorClient.connect(daemonUrl, src);
    client.send({ type: 'load', token });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const m = client.messages.find((x) => x.type === 'status' || x.type === 'error');
      if (m) return m.type;
      if (client.closeCode !== undefined) return `closed ${client.closeCode}`;
      await sleep(50);
    }
    return 'timeout';
  } catch (e) {
    return `refused: ${(e as Error).message}`;
  } finally {
    client?.close();
  }
}

/**
 * Issue 17, item 10: no access token and no user info of a URL in any log line. A real `ode serve` at log_level
 * debug is sent a WOPISrc carrying user info (`http://user:<secret>@host/...`), access tokens in WOPISrc queries,
 * load messages, editor-page forms, /health and conversion queries, through the error paths: user info in the URL,
 * the host down, 401 to CheckFileInfo, GetFile 500, PutFile 500 then 401, malformed WOPISrc, a refused WebSocket,
 * conversion errors, a WOPI access check. Every line the daemon wrote (its stderr: the logger's output) is searched
 * for the token and the secret: none may appear, and the error paths must have been logged (the test is not empty).
 */
describe('no token or user info in the logs', () => {
  const scratch = useServeScratch('ode-log-secrets-');

  it('greps every line of a daemon taken through the error paths', { timeout: 240_000 }, async () => {
    const TOKEN = `tok${randomBytes(12).toString('hex')}`;
    const SECRET = `pw${randomBytes(12).toString('hex')}`;
    const host = (scratch.host = await FakeWopiHost.start());
    host.token = TOKEN;
    const dead = await freePort();
    const { config, url } = await writeServeConfig(scratch.dir, {
      admin: { port: 0 },
      state_dir: join(scratch.dir, 'state'),
      log_level: 'debug',
      kits: { prespawn: 1, max: 2 },
      documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, upload_retry_max_secs: 1, exit_save_secs: 3 },
    });
    const serving = await startServe(config, { fromSources: true, stdout: true, timeoutMs: 90_000 });
    const child = (scratch.child = serving.child);
    const hostPort = new URL(host.url).port;
    const userInfoSrc = (id: string) => `http://user:${SECRET}@127.0.0.1:${hostPort}/wopi/files/${id}?access_token=${TOKEN}`;
    host.addFile('ok1', 'ok1.docx', DOCX);
    host.addFile('u401', 'u401.docx', DOCX);
    host.addFile('g500', 'g500.docx', DOCX);

    const outcomes: Record<string, string> = {};
    // User info in the WOPISrc (the issue's case), with the token in its query and in the load message.
    outcomes.userInfo = await tryOpen(url, userInfoSrc('ok1'), TOKEN);
    // The host down.
    outcomes.hostDown = await tryOpen(url, `http://user:${SECRET}@127.0.0.1:${dead}/wopi/files/gone?access_token=${TOKEN}`, TOKEN);
    outcomes.hostDownPlain = await tryOpen(url, `http://127.0.0.1:${dead}/wopi/files/gone?access_token=${TOKEN}`, TOKEN);
    // 401 to CheckFileInfo; 500 to GetFile.
    host.answer('CheckFileInfo', { status: 401, body: `{"error":"token ${TOKEN} refused"}` });
    outcomes.unauthorized = await tryOpen(url, `${host.fileUrl('u401')}?access_token=${TOKEN}`, TOKEN);
    host.answer('GetFile', { status: 500, body: `GetFile failed for ${TOKEN}` });
    outcomes.getFile500 = await tryOpen(url, host.fileUrl('g500'), TOKEN, 10_000);
    // Malformed WOPISrc values carrying the secrets.
    for (const [name, src] of [
      ['notUrl', `not a url ${TOKEN} user:${SECRET}@x`],
      ['ftp', `ftp://user:${SECRET}@127.0.0.1/wopi/files/x?access_token=${TOKEN}`],
      ['badId', `http://user:${SECRET}@127.0.0.1:${hostPort}/wopi/files/bad!id?access_token=${TOKEN}`],
      ['noWopi', `http://user:${SECRET}@127.0.0.1:${hostPort}/files/x?access_token=${TOKEN}`],
      ['otherHost', `http://user:${SECRET}@example.invalid/wopi/files/x?access_token=${TOKEN}`],
    ] as const) {
      outcomes[name] = await tryOpen(url, src, TOKEN, 10_000);
    }
    // The editor page (GET with the token in the query, POST with the spec's form), /health, download, conversions.
    const enc = encodeURIComponent;
    const fetches: Array<[string, RequestInit?]> = [
      [`${url}/browser/0/ode.html?WOPISrc=${enc(userInfoSrc('ok1'))}&access_token=${TOKEN}`],
      [
        `${url}/browser/0/ode.html?WOPISrc=${enc(userInfoSrc('ok1'))}`,
        { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `access_token=${TOKEN}&access_token_ttl=0` },
      ],
      [`${url}/browser/0/ode.html?WOPISrc=${enc(`not a url ${TOKEN}`)}&access_token=${TOKEN}`],
      [`${url}/health?WOPISrc=${enc(userInfoSrc('ok1'))}&access_token=${TOKEN}`],
      [`${url}/ode/download/nothing?WOPISrc=${enc(userInfoSrc('ok1'))}&access_token=${TOKEN}`],
      [`${url}/nowhere?access_token=${TOKEN}&u=http://user:${SECRET}@h/`],
      [
        `${url}/hosting/wopiAccessCheck`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ callbackUrl: `http://user:${SECRET}@127.0.0.1:${dead}/wopi?access_token=${TOKEN}` }),
        },
      ],
    ];
    const form = (bytes: Uint8Array, name: string) => {
      const f = new FormData();
      f.append('data', new Blob([bytes]), name);
      return f;
    };
    fetches.push([
      `${url}/ode/convert-to/pdf?access_token=${TOKEN}&WOPISrc=${enc(userInfoSrc('x'))}`,
      { method: 'POST', body: form(randomBytes(3000), `${TOKEN}.ppt`) },
    ]);
    fetches.push([`${url}/ode/convert-to/nosuchformat?access_token=${TOKEN}`, { method: 'POST', body: form(DOCX, 'a.docx') }]);
    fetches.push([`${url}/ode/extract-document-structure?access_token=${TOKEN}`, { method: 'POST', body: form(randomBytes(2000), `${SECRET}.docx`) }]);
    fetches.push([
      `${url}/ode/convert-to/pdf?access_token=${TOKEN}`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        body: `--x\r\nContent-Disposition: form-data; name="data"; filename="${TOKEN}.docx"\r\n\r\nnever closed`,
      },
    ]);
    const statuses: number[] = [];
    for (const [u, init] of fetches) statuses.push((await fetch(u, init)).status);

    // A document that opens, then its uploads fail: 500 (retried), then 401.
    const { client } = await EditorClient.open(url, `${host.fileUrl('ok1')}?access_token=${TOKEN}`, { token: TOKEN });
    const from = client.messages.length;
    client.type('secret-free');
    await client.next('modified', (m) => m.modified, 30_000, from);
    host.answer('PutFile', { status: 500, body: `no ${TOKEN}` }, { status: 401, body: `bad token ${TOKEN}` });
    client.send({ type: 'save' });
    await client.next('saved', (m) => !m.ok, 30_000, from);

    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    scratch.child = undefined;

    const lines = serving.output.split('\n').filter((l) => l.trim());
    const leaks = lines.filter((l) => l.includes(TOKEN) || l.includes(SECRET));
    expect(leaks, `log lines with the token or the secret:\n${leaks.join('\n')}`).toEqual([]);
    // The error paths were taken and logged (the search above is not over an empty log).
    expect(
      Object.values(outcomes).every((o) => o !== 'status'),
      JSON.stringify(outcomes),
    ).toBe(true);
    const problems = lines.filter((l) => /"level":(40|50)/.test(l));
    expect(problems.length).toBeGreaterThanOrEqual(10);
    expect(lines.some((l) => l.includes('[redacted]'))).toBe(true);
    console.log(`log lines searched: ${lines.length} (${problems.length} warn/error); outcomes ${JSON.stringify(outcomes)}; statuses ${statuses.join(',')}`);
  });
});
