import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch, type Response } from 'undici';
import type { ClientOptions } from 'ws';
import { stringify } from 'yaml';
import { AdminTokenStore } from '../../certs/admin-token.ts';
import { generateCertificateFiles } from '../../certs/server-cert.ts';
import { createAdminClient, type AdminClient } from '../../tui/client.ts';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';
import { freePort } from '../helpers/net.ts';
import { startNginxCluster, type RunningNginxCluster } from '../deploy/proxies.ts';

/** One Ode node of the test cluster. */
export interface ClusterNode {
  /** Its name in the balancer's configuration (ode1, ode2, ode3). */
  name: string;
  daemon: TestDaemon;
  /** X-Ode-Server-Id of its answers. */
  serverId: string;
}

/** Which balancer runs in front of the nodes, from its documented configuration. */
export type BalancerKind = 'haproxy' | 'nginx';

/** A running balancer in front of the nodes. */
export interface Balancer {
  /** Its base URL: `http://127.0.0.1:<port>` (HAProxy), `https://127.0.0.1:<port>` (nginx, TLS from a test CA). */
  url: string;
  /** HAProxy's log lines (httplog: one per request, naming the server that answered); nginx's are in `balanced`. */
  log: string[];
  /**
   * The requests it logged whose URI contains `text`: the node (by name) that answered, method and URI, and every
   * node tried in order (nginx passes a request on to the next node after an error or a 503; HAProxy: the one).
   */
  balanced(text: string): Array<{ server: string; method: string; uri: string; tried: string[] }>;
  /** fetch through the balancer (trusting the test CA). */
  fetch(url: string, init?: { method?: string; body?: URLSearchParams }): Promise<Response>;
  /** Options for `ws` clients through the balancer (the test CA), for EditorClient. */
  wsOptions: ClientOptions | undefined;
  stop(): Promise<void>;
}

/** Three Ode nodes sharing one proof key behind a real HAProxy or nginx, and a fake WOPI host. */
export interface Cluster {
  host: FakeWopiHost;
  nodes: ClusterNode[];
  /** The balancer's base URL. */
  balancerUrl: string;
  balancer: Balancer;
  /** The proof key file every node reads (config `proof_key`). */
  proofKeyPath: string;
  /** HAProxy's log lines (httplog: one per request, naming the server that answered). */
  balancerLog: string[];
  stop(): Promise<void>;
}

/** The node addresses: 127.0.0.2-4 when they can be bound (Linux routes 127/8 to loopback), else 127.0.0.1 three times. */
export async function nodeAddresses(): Promise<string[]> {
  const wanted = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
  try {
    for (const a of wanted) await freePort(a);
    return wanted;
  } catch {
    return ['127.0.0.1', '127.0.0.1', '127.0.0.1'];
  }
}

/**
 * One port free on every node address, the same on each run when it can be: nginx places its servers on the hash
 * ring by their `address:port` text, so a random port per run would give another spread of documents each run
 * (HAProxy places them by server name). 29980 unless taken; 0 (a free port per node) when the nodes share 127.0.0.1.
 */
async function nodePort(addresses: string[]): Promise<number> {
  if (new Set(addresses).size < addresses.length) return 0;
  for (const port of [29980, 29981, 29982]) {
    const free = await Promise.all(
      addresses.map(
        (a) =>
          new Promise<boolean>((resolve) => {
            const s = createServer();
            s.once('error', () => resolve(false));
            s.listen(port, a, () => s.close(() => resolve(true)));
          }),
      ),
    );
    if (free.every(Boolean)) return port;
  }
  return 0;
}

/**
 * docs/deploy/haproxy.cfg with the test's addresses: the `bind` line on `listen`, the `server` lines replaced by
 * `servers`. Everything else (balance, hash-type, checks, time-outs) is the documented configuration.
 */
export function renderHaproxyConfig(listen: string, servers: Array<{ name: string; address: string }>): string {
  const doc = readFileSync(new URL('../../docs/deploy/haproxy.cfg', import.meta.url), 'utf8');
  const lines = doc.split('\n');
  if (!lines.some((l) => /^\s+bind :80\s*$/.test(l))) throw new Error('docs/deploy/haproxy.cfg: no `bind :80` line to render');
  const firstServer = lines.findIndex((l) => /^\s+server /.test(l));
  if (firstServer < 0) throw new Error('docs/deploy/haproxy.cfg: no server lines');
  const out = lines.filter((l) => !/^\s+server /.test(l)).map((l) => (/^\s+bind :80\s*$/.test(l) ? `    bind ${listen}` : l));
  out.splice(firstServer, 0, ...servers.map((s) => `    server ${s.name} ${s.address}`));
  return out.join('\n');
}

/**
 * Starts `kind` in front of `servers` (name and host:port) with its documented configuration rendered for them, and
 * resolves once it answers /hosting/capabilities. HAProxy runs in the foreground (`-db`, its log on stdout); nginx
 * as test/deploy/proxies.ts starts it, with TLS from a throwaway CA in `dir`.
 */
export async function startBalancer(kind: BalancerKind, dir: string, servers: Array<{ name: string; address: string }>): Promise<Balancer> {
  const port = await freePort('127.0.0.1');
  let stopProcess: () => Promise<void>;
  let agent: Agent | undefined;
  let wsOptions: ClientOptions | undefined;
  let url: string;
  const log: string[] = [];
  let balanced: Balancer['balanced'];
  let exited: Promise<never> | undefined;
  if (kind === 'haproxy') {
    const cfgPath = join(dir, 'haproxy.cfg');
    writeFileSync(cfgPath, renderHaproxyConfig(`127.0.0.1:${port}`, servers));
    const haproxy: ChildProcess = spawn('haproxy', ['-db', '-f', cfgPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [haproxy.stdout!, haproxy.stderr!]) stream.on('data', (b: Buffer) => log.push(...b.toString().split('\n').filter(Boolean)));
    exited = new Promise<never>((_, j) => haproxy.once('exit', (code) => j(new Error(`haproxy exited (${code}): ${log.join('\n')}`))));
    exited.catch(() => undefined);
    stopProcess = async () => void haproxy.kill('SIGKILL');
    url = `http://127.0.0.1:${port}`;
    balanced = (text) =>
      log.flatMap((l) => {
        const m = / ode_nodes\/(\S+) .*"(\w+) (\S+) HTTP\/[\d.]+"/.exec(l);
        return m && m[3].includes(text) ? [{ server: m[1], method: m[2], uri: m[3], tried: [m[1]] }] : [];
      });
  } else {
    const tls = generateCertificateFiles(join(dir, 'certs'), { names: ['localhost', '127.0.0.1'], days: 90 });
    const ca = readFileSync(tls.caCert, 'utf8');
    agent = new Agent({ connect: { ca } });
    wsOptions = { ca };
    const nginx: RunningNginxCluster = await startNginxCluster({
      httpsPort: port,
      servers: servers.map((s) => s.address),
      certFile: tls.cert,
      keyFile: tls.key,
    });
    stopProcess = () => nginx.stop();
    url = nginx.url;
    const nameOf = new Map(servers.map((s) => [s.address, s.name]));
    // The last upstream tried is the one that answered (the ones before failed: proxy_next_upstream).
    const name = (address: string) => nameOf.get(address) ?? address;
    balanced = (text) =>
      nginx
        .accessLog()
        .flatMap((r) => (r.uri.includes(text) ? [{ server: name(r.upstreams.at(-1)!), method: r.method, uri: r.uri, tried: r.upstreams.map(name) }] : []));
  }
  const fetch: Balancer['fetch'] = (u, init) => undiciFetch(u, { ...init, dispatcher: agent });
  const stop = async () => {
    await stopProcess();
    await agent?.close();
  };
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ok = await Promise.race([
        fetch(`${url}/hosting/capabilities`).then(
          (r) => r.ok,
          () => false,
        ),
        ...(exited ? [exited] : []),
      ]);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the balancer did not answer: ${log.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, log, balanced, fetch, wsOptions, stop };
}

/** A fresh proof key file (RSA 2048, PKCS#8, 0600) in `dir`, as `ode proof-key create` writes it. */
function writeProofKey(dir: string): string {
  const proofKeyPath = join(dir, 'proof_key');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(proofKeyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return proofKeyPath;
}

/**
 * Starts the cluster: a fake WOPI host, a proof key file, three daemons (127.0.0.2-4, port 0, each with its own
 * state dir and serverId, all reading the key file, in this process), and the balancer (`kind`, HAProxy by default)
 * with its rendered documented configuration; resolves once the balancer answers. What started is stopped if a
 * later part fails.
 */
export async function startCluster(kind: BalancerKind = 'haproxy'): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-cluster-'));
  const proofKeyPath = writeProofKey(dir);
  const host = await FakeWopiHost.start();
  const nodes: ClusterNode[] = [];
  let balancer: Balancer | undefined;
  const stop = async () => {
    await balancer?.stop();
    await Promise.all(nodes.map((n) => n.daemon.stop().catch(() => undefined)));
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const addresses = await nodeAddresses();
    const port = await nodePort(addresses);
    const daemons = await Promise.all(
      addresses.map((listen) =>
        startDaemon(
          { net: { listen }, proof_key: proofKeyPath, kits: { prespawn: 2, max: 4 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } },
          2,
          port,
        ),
      ),
    );
    daemons.forEach((daemon, i) => nodes.push({ name: `ode${i + 1}`, daemon, serverId: daemon.server.context.serverId }));
    host.proofKey = publicKeyFromDiscovery(await (await fetch(`${nodes[0].daemon.url}/hosting/discovery`)).text());
    balancer = await startBalancer(
      kind,
      dir,
      nodes.map((n) => ({ name: n.name, address: new URL(n.daemon.url).host })),
    );
    return { host, nodes, balancerUrl: balancer.url, balancer, proofKeyPath, balancerLog: balancer.log, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

const ODE = new URL('../../bin/ode.js', import.meta.url).pathname;

/** One Ode node run as its own `ode serve` process (so it can be killed with SIGKILL, drained to exit, restarted). */
export interface ProcessNode {
  /** Its name in the balancer's configuration (ode1, ode2, ode3). */
  name: string;
  /** `http://<address>:<port>`: the same across restarts. */
  url: string;
  /** The admin listener's base URL (127.0.0.1, its own port). */
  adminUrl: string;
  configFile: string;
  /** X-Ode-Server-Id of the process running now (a new one after each start). */
  serverId: string;
  /** The running process's pid, undefined while stopped. */
  pid: number | undefined;
  /** Resolves with the exit code when the running process exits (undefined while stopped). */
  exited: Promise<number | null> | undefined;
  /** Starts the process (same configuration, same state dir: its edit journal is recovered) and waits for /health 200. */
  start(): Promise<void>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** An admin API client (the token from the node's state dir, as `ode drain` finds it); close it after use. */
  admin(): AdminClient;
  /** The running process's stderr so far (its log), for failure messages. */
  stderr(): string;
}

/** Three `ode serve` processes sharing one proof key behind a balancer, and a fake WOPI host. */
export interface ProcessCluster {
  host: FakeWopiHost;
  nodes: ProcessNode[];
  balancer: Balancer;
  stop(): Promise<void>;
}

/** Starts one node process, from its configuration file, and waits for /health 200. */
function processNode(name: string, url: string, adminUrl: string, configFile: string, stateDir: string): ProcessNode {
  let child: ChildProcess | undefined;
  let err = '';
  const node: ProcessNode = {
    name,
    url,
    adminUrl,
    configFile,
    serverId: '',
    pid: undefined,
    exited: undefined,
    async start() {
      err = '';
      const c = spawn(process.execPath, [ODE, 'serve', '--config', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
      child = c;
      c.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
      node.pid = c.pid;
      node.exited = new Promise((r) => c.once('exit', (code) => r(code)));
      void node.exited.then(() => {
        if (child === c) node.pid = undefined;
      });
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (c.exitCode !== null) throw new Error(`${name} exited (${c.exitCode}): ${err}`);
        const r = await fetch(`${url}/health`).catch(() => undefined);
        const body = r ? ((await r.json().catch(() => ({}))) as { serverId?: string }) : {};
        if (r?.status === 200 && body.serverId) {
          node.serverId = body.serverId;
          return;
        }
        if (Date.now() > deadline) throw new Error(`${name} did not become healthy: ${err}`);
        await new Promise((res) => setTimeout(res, 200));
      }
    },
    async kill() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await node.exited;
    },
    admin() {
      return createAdminClient({ url: adminUrl, token: () => new AdminTokenStore({ stateDir }).read()?.token ?? '' });
    },
    stderr: () => err,
  };
  return node;
}

/**
 * Starts three `ode serve` processes (bin/ode.js, 127.0.0.2-4, fixed ports so a restarted node is where the
 * balancer expects it; each its own state dir, all reading one proof key file; `kits` warm and at most) behind the
 * balancer `kind` with its documented configuration, and a fake WOPI host. What started is stopped if a later part
 * fails; stop() kills what still runs.
 */
export async function startProcessCluster(kind: BalancerKind, kits: { prespawn: number; max: number }): Promise<ProcessCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-pcluster-'));
  const proofKeyPath = writeProofKey(dir);
  const host = await FakeWopiHost.start();
  const nodes: ProcessNode[] = [];
  let balancer: Balancer | undefined;
  const stop = async () => {
    await balancer?.stop();
    await Promise.all(nodes.map((n) => n.kill().catch(() => undefined)));
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const addresses = await nodeAddresses();
    for (const [i, address] of addresses.entries()) {
      const name = `ode${i + 1}`;
      const [port, adminPort] = [await freePort(address), await freePort('127.0.0.1')];
      const stateDir = join(dir, name);
      const configFile = join(dir, `${name}.yaml`);
      writeFileSync(
        configFile,
        stringify({
          net: { listen: address, port },
          admin: { port: adminPort },
          state_dir: stateDir,
          proof_key: proofKeyPath,
          kits,
          documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 },
        }),
      );
      nodes.push(processNode(name, `http://${address}:${port}`, `http://127.0.0.1:${adminPort}`, configFile, stateDir));
    }
    await Promise.all(nodes.map((n) => n.start()));
    host.proofKey = publicKeyFromDiscovery(await (await fetch(`${nodes[0].url}/hosting/discovery`)).text());
    balancer = await startBalancer(
      kind,
      dir,
      nodes.map((n) => ({ name: n.name, address: new URL(n.url).host })),
    );
    return { host, nodes, balancer, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
