import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/net.ts';

/** The documented configurations, read as they are (docs/deploy/). */
export const NGINX_CONF = new URL('../../docs/deploy/nginx.conf', import.meta.url).pathname;
export const APACHE_CONF = new URL('../../docs/deploy/apache.conf', import.meta.url).pathname;
export const NGINX_CLUSTER_CONF = new URL('../../docs/deploy/nginx-cluster.conf', import.meta.url).pathname;

/** A reverse proxy running as a real process on loopback, in front of Ode. */
export interface RunningProxy {
  /** `https://127.0.0.1:<port>`: the TLS listener of the documented server block / virtual host. */
  url: string;
  /** `http://127.0.0.1:<port>`: the documented plain-HTTP listener (it redirects to https). */
  httpUrl: string;
  /** The configuration text the proxy runs: the documented text with ports, upstream and file paths filled in. */
  siteText: string;
  /** What the proxy wrote to stderr and its error log (for failure messages). */
  errors(): string;
  stop(): Promise<void>;
}

/** What the templating fills in. */
export interface ProxyOptions {
  /** Ode's port (the documented upstream is 127.0.0.1:9980). */
  odePort: number;
  /** Port of the TLS listener (documented: 443); reserve it with freePort() before starting Ode with its URL. */
  httpsPort: number;
  certFile: string;
  keyFile: string;
  /** Applied to the documented text before templating, for tests of a broken install (e.g. lines removed). */
  edit?: (text: string) => string;
}

/** Replaces `from` by `to`, insisting on exactly `count` occurrences, so a doc edit that escapes templating fails loudly. */
function fill(text: string, from: string, to: string, count: number): string {
  const seen = text.split(from).length - 1;
  if (seen !== count) throw new Error(`expected ${count} x "${from}" in the documented config, found ${seen}`);
  return text.replaceAll(from, to);
}

async function waitListening(port: number, child: ChildProcess, errors: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`the proxy exited (${child.exitCode}): ${errors()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = createConnection({ port, host: '127.0.0.1' }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the proxy did not listen on ${port}: ${errors()}`);
}

async function run(dir: string, cmd: string, args: string[], httpsPort: number, httpPort: number, siteText: string, errorLog: string): Promise<RunningProxy> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const errors = () => {
    let log = '';
    try {
      log = readFileSync(errorLog, 'utf8');
    } catch {
      // not written yet
    }
    return `${stderr}\n${log}`.trim();
  };
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitListening(httpsPort, child, errors);
  } catch (e) {
    child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `https://127.0.0.1:${httpsPort}`,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    siteText,
    errors,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `start`; when it throws before a proxy runs (e.g. templating), the temp folder goes too. */
async function removedOnThrow(dir: string, start: () => Promise<RunningProxy>): Promise<RunningProxy> {
  try {
    return await start();
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** A temp folder the proxies' unprivileged workers (www-data) can enter: mkdtemp makes it 0700. */
function proxyDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * Starts Debian's nginx in the foreground (`nginx -p <dir> -c <dir>/nginx.conf -g 'daemon off;'`) with a minimal
 * main configuration (pid, logs and temp paths in a temp dir, workers as www-data as Debian's own nginx.conf
 * does) that includes docs/deploy/nginx.conf with only its ports, upstream and certificate paths filled in.
 */
export async function startNginx(opts: ProxyOptions): Promise<RunningProxy> {
  const dir = proxyDir('ode-nginx-');
  const httpPort = await freePort();
  return removedOnThrow(dir, () => nginxIn(dir, httpPort, opts));
}

function nginxIn(dir: string, httpPort: number, opts: ProxyOptions): Promise<RunningProxy> {
  let site = (opts.edit ?? ((t: string) => t))(readFileSync(NGINX_CONF, 'utf8'));
  site = fill(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`, 1);
  site = fill(site, 'listen [::]:80;', `listen [::1]:${httpPort};`, 1);
  site = fill(site, 'listen 443 ssl', `listen 127.0.0.1:${opts.httpsPort} ssl`, 1);
  site = fill(site, 'listen [::]:443 ssl', `listen [::1]:${opts.httpsPort} ssl`, 1);
  site = fill(site, '/etc/letsencrypt/live/ode.example.com/fullchain.pem', opts.certFile, 1);
  site = fill(site, '/etc/letsencrypt/live/ode.example.com/privkey.pem', opts.keyFile, 1);
  site = fill(site, 'http://127.0.0.1:9980', `http://127.0.0.1:${opts.odePort}`, 2);
  return runNginx(dir, site, opts.httpsPort, httpPort);
}

/**
 * Writes the minimal main configuration around `site` in `dir` (pid, logs and temp paths there, workers as
 * www-data as Debian's own nginx.conf does; the access log in `accessLogFormat` when given) and runs nginx in the
 * foreground until it listens on `port`.
 */
function runNginx(dir: string, site: string, port: number, httpPort: number, accessLogFormat?: string): Promise<RunningProxy> {
  writeFileSync(join(dir, 'site.conf'), site);
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, t));
  const errorLog = join(dir, 'error.log');
  const accessLog = accessLogFormat
    ? `log_format test '${accessLogFormat}';\n  access_log ${join(dir, 'access.log')} test;`
    : `access_log ${join(dir, 'access.log')};`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `user www-data;
worker_processes 1;
error_log ${errorLog} warn;
pid ${join(dir, 'nginx.pid')};
events { worker_connections 256; }
http {
  ${accessLog}
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  include ${join(dir, 'site.conf')};
}
`,
  );
  return run(dir, 'nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], port, httpPort, site, errorLog);
}

/** nginx in front of several Ode nodes (docs/deploy/nginx-cluster.conf), as started by startNginxCluster. */
export interface RunningNginxCluster extends RunningProxy {
  /** nginx's access log so far, one entry per request: the upstream(s) it tried (`$upstream_addr`) and the request line. */
  accessLog(): Array<{ upstreams: string[]; method: string; uri: string; status: number }>;
}

/**
 * Starts Debian's nginx with docs/deploy/nginx-cluster.conf as shipped but for the TLS listener (127.0.0.1 and ::1
 * on `httpsPort`), the certificate paths and the upstream's `server` lines (`servers`: host:port, each keeping the
 * documented parameters). The access log records `$upstream_addr` for every request.
 */
export async function startNginxCluster(opts: { httpsPort: number; servers: string[]; certFile: string; keyFile: string }): Promise<RunningNginxCluster> {
  const dir = proxyDir('ode-nginx-cluster-');
  const proxy = await removedOnThrow(dir, () => {
    let site = readFileSync(NGINX_CLUSTER_CONF, 'utf8');
    site = fill(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${opts.httpsPort} ssl http2;`, 1);
    site = fill(site, 'listen [::]:443 ssl http2;', `listen [::1]:${opts.httpsPort} ssl http2;`, 1);
    site = fill(site, '/etc/letsencrypt/live/office.example.org/fullchain.pem', opts.certFile, 1);
    site = fill(site, '/etc/letsencrypt/live/office.example.org/privkey.pem', opts.keyFile, 1);
    const lines = site.split('\n');
    const documented = lines.filter((l) => /^\s+server \S+:\d+/.test(l));
    if (documented.length === 0) throw new Error('docs/deploy/nginx-cluster.conf: no upstream server lines');
    const params = /^\s+server \S+(.*)$/.exec(documented[0])![1];
    const first = lines.indexOf(documented[0]);
    const out = lines.filter((l) => !documented.includes(l));
    out.splice(first, 0, ...opts.servers.map((s) => `    server ${s}${params}`));
    // The documented file has no plain-HTTP listener: httpUrl is the TLS one's port too.
    return runNginx(dir, out.join('\n'), opts.httpsPort, opts.httpsPort, '$upstream_addr $status "$request"');
  });
  return {
    ...proxy,
    accessLog() {
      let text = '';
      try {
        text = readFileSync(join(dir, 'access.log'), 'utf8');
      } catch {
        // nothing logged yet
      }
      return text.split('\n').flatMap((l) => {
        const m = /^(.+) (\d{3}) "(\w+) (\S+) HTTP\/[\d.]+"$/.exec(l);
        // Several upstreams tried: "a, b" (next upstream), "a : b" (an internal redirect).
        return m ? [{ upstreams: m[1].split(/, | : /), method: m[3], uri: m[4], status: Number(m[2]) }] : [];
      });
    },
  };
}

/** The Apache modules the documented configuration needs (a2enmod proxy proxy_http proxy_wstunnel headers ssl), and their base. */
const APACHE_MODULES = ['mpm_event', 'authz_core', 'alias', 'proxy', 'proxy_http', 'proxy_wstunnel', 'headers', 'ssl', 'socache_shmcb'];

/**
 * Starts Debian's apache2 in the foreground (`apache2 -f <conf> -DFOREGROUND`) with its own ServerRoot, PidFile,
 * ErrorLog and runtime dir in a temp dir, modules loaded from /usr/lib/apache2/modules, and
 * docs/deploy/apache.conf included with only its ports, upstream and certificate paths filled in.
 */
export async function startApache(opts: ProxyOptions): Promise<RunningProxy> {
  const dir = proxyDir('ode-apache-');
  const httpPort = await freePort();
  return removedOnThrow(dir, () => apacheIn(dir, httpPort, opts));
}

function apacheIn(dir: string, httpPort: number, opts: ProxyOptions): Promise<RunningProxy> {
  let site = (opts.edit ?? ((t: string) => t))(readFileSync(APACHE_CONF, 'utf8'));
  site = fill(site, '<VirtualHost *:80>', `<VirtualHost 127.0.0.1:${httpPort}>`, 1);
  site = fill(site, '<VirtualHost *:443>', `<VirtualHost 127.0.0.1:${opts.httpsPort}>`, 1);
  site = fill(site, '/etc/letsencrypt/live/ode.example.com/fullchain.pem', opts.certFile, 1);
  site = fill(site, '/etc/letsencrypt/live/ode.example.com/privkey.pem', opts.keyFile, 1);
  site = fill(site, 'ws://127.0.0.1:9980', `ws://127.0.0.1:${opts.odePort}`, 2);
  site = fill(site, 'http://127.0.0.1:9980', `http://127.0.0.1:${opts.odePort}`, 2);
  writeFileSync(join(dir, 'site.conf'), site);
  mkdirSync(join(dir, 'run'));
  const errorLog = join(dir, 'error.log');
  const conf = join(dir, 'apache2.conf');
  writeFileSync(
    conf,
    `ServerRoot ${dir}
DefaultRuntimeDir ${join(dir, 'run')}
PidFile ${join(dir, 'apache2.pid')}
Mutex file:${join(dir, 'run')} default
ErrorLog ${errorLog}
LogLevel warn
User www-data
Group www-data
ServerName 127.0.0.1
${APACHE_MODULES.map((m) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`).join('\n')}
SSLSessionCache shmcb:${join(dir, 'run', 'ssl_scache')}(512000)
Listen 127.0.0.1:${httpPort}
Listen 127.0.0.1:${opts.httpsPort}
Include ${join(dir, 'site.conf')}
`,
  );
  return run(dir, 'apache2', ['-f', conf, '-DFOREGROUND'], opts.httpsPort, httpPort, site, errorLog);
}
