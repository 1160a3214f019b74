import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, type TestDaemon } from '../helpers/daemon.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from '../helpers/fake-wopi-host.ts';

/** One Ode node of the test cluster. */
export interface ClusterNode {
  /** Its name in the balancer's configuration (ode1, ode2, ode3). */
  name: string;
  daemon: TestDaemon;
  /** X-Ode-Server-Id of its answers. */
  serverId: string;
}

/** Three Ode nodes sharing one proof key behind a real HAProxy, and a fake WOPI host. */
export interface Cluster {
  host: FakeWopiHost;
  nodes: ClusterNode[];
  /** The balancer's base URL (`http://127.0.0.1:<port>`). */
  balancerUrl: string;
  /** The proof key file every node reads (config `proof_key`). */
  proofKeyPath: string;
  /** HAProxy's log lines (httplog: one per request, naming the server that answered). */
  balancerLog: string[];
  stop(): Promise<void>;
}

/** A free TCP port on `address` (bound and released). */
async function freePort(address: string): Promise<number> {
  const s = createServer();
  await new Promise<void>((r, j) => s.once('error', j).listen(0, address, r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** The node addresses: 127.0.0.2-4 when they can be bound (Linux routes 127/8 to loopback), else 127.0.0.1 three times. */
async function nodeAddresses(): Promise<string[]> {
  const wanted = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
  try {
    for (const a of wanted) await freePort(a);
    return wanted;
  } catch {
    return ['127.0.0.1', '127.0.0.1', '127.0.0.1'];
  }
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
 * Starts the cluster: a fake WOPI host, a proof key file, three daemons (127.0.0.2-4, port 0, each with its own
 * state dir and serverId, all reading the key file), and HAProxy in the foreground (`-db`) with the rendered
 * documented configuration; resolves once the balancer answers. What started is stopped if a later part fails.
 */
export async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'ode-cluster-'));
  const proofKeyPath = join(dir, 'proof_key');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(proofKeyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const host = await FakeWopiHost.start();
  const nodes: ClusterNode[] = [];
  let haproxy: ChildProcess | undefined;
  const balancerLog: string[] = [];
  const stop = async () => {
    haproxy?.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.daemon.stop().catch(() => undefined)));
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const addresses = await nodeAddresses();
    const daemons = await Promise.all(
      addresses.map((listen) =>
        startDaemon({ net: { listen }, proof_key: proofKeyPath, kits: { prespawn: 2, max: 4 }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, 2),
      ),
    );
    daemons.forEach((daemon, i) => nodes.push({ name: `ode${i + 1}`, daemon, serverId: daemon.server.context.serverId }));
    host.proofKey = publicKeyFromDiscovery(await (await fetch(`${nodes[0].daemon.url}/hosting/discovery`)).text());
    const port = await freePort('127.0.0.1');
    const cfgPath = join(dir, 'haproxy.cfg');
    writeFileSync(cfgPath, renderHaproxyConfig(`127.0.0.1:${port}`, nodes.map((n) => ({ name: n.name, address: new URL(n.daemon.url).host }))));
    haproxy = spawn('haproxy', ['-db', '-f', cfgPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [haproxy.stdout!, haproxy.stderr!]) stream.on('data', (b: Buffer) => balancerLog.push(...b.toString().split('\n').filter(Boolean)));
    const exited = new Promise<never>((_, j) => haproxy!.once('exit', (code) => j(new Error(`haproxy exited (${code}): ${balancerLog.join('\n')}`))));
    const balancerUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ok = await Promise.race([fetch(`${balancerUrl}/hosting/capabilities`).then((r) => r.ok, () => false), exited]);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the balancer did not answer: ${balancerLog.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    exited.catch(() => undefined);
    return { host, nodes, balancerUrl, proofKeyPath, balancerLog, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
