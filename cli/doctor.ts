import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { OdeConfig } from '../daemon/server/index.ts';
import { checkCertificate } from './doctor/certificate.ts';
import { formatResult, type CheckResult, type DoctorContext } from './doctor/check.ts';
import { checkFonts } from './doctor/fonts.ts';
import { checkLibreOffice } from './doctor/libreoffice.ts';
import { checkProofKey } from './doctor/proof-key.ts';
import { checkClock, checkPublicUrl, fetchDiscovery } from './doctor/public-url.ts';
import { checkSandbox } from './doctor/sandbox.ts';
import { checkUpload } from './doctor/upload.ts';
import { checkWebSocket } from './doctor/websocket.ts';
import { loadRuntime } from './runtime.ts';

/** The URL to check when --url is not given: net.public_url, else the public listener itself. */
export function defaultUrl(cfg: OdeConfig): string {
  if (cfg.net.public_url) return cfg.net.public_url;
  const listen = cfg.net.listen === '0.0.0.0' ? '127.0.0.1' : cfg.net.listen === '::' ? '::1' : cfg.net.listen;
  const host = listen.includes(':') ? `[${listen}]` : listen;
  return `${cfg.ssl.enable ? 'https' : 'http'}://${host}:${cfg.net.port}`;
}

/**
 * `ode doctor [--url <public url>] [--ca <file>]`: checks an install from outside (issue 8, "Deployment") and
 * prints one line per check, `ok`, `warn` or `FAIL`, what was seen and the fix. The local checks (LibreOffice,
 * fonts, proof key, ssl files) read the configuration given with --config; the others go through the public URL
 * as hosts and browsers do (discovery, WebSocket upgrade, a 20 MB upload, TLS, clock). Exit code 0 when no check
 * FAILs (warnings do not fail), 1 otherwise.
 */
export function doctorCommand(): Command {
  return new Command('doctor')
    .description('check a running install from outside: LibreOffice, fonts, proof key, certificate, public URL, WebSocket upgrade, 20 MB upload, clock')
    .option('--url <url>', 'the public URL hosts and browsers use (default: net.public_url, else the listener)')
    .option('--ca <file>', 'also trust this CA certificate (PEM) for the public URL, e.g. a company or `ode certs generate` CA')
    .action(async (opts: { url?: string; ca?: string }, cmd: Command) => {
      const { store, log } = loadRuntime(cmd, 'fatal');
      const config = store.get();
      let url: URL;
      try {
        url = new URL(opts.url ?? defaultUrl(config));
      } catch {
        throw new Error(`--url ${opts.url} is not an absolute URL such as https://office.example.com`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--url must be http(s), not ${url.protocol}`);
      const ca = opts.ca ? [readFileSync(opts.ca, 'utf8')] : [];
      const discovery = await fetchDiscovery(url, ca);
      const ctx: DoctorContext = { config, url, ca, discovery: discovery.answer, discoveryError: discovery.error };
      process.stdout.write(`ode doctor: ${url.origin}${url.pathname === '/' ? '' : url.pathname}, configuration ${store.file ?? '(defaults)'}\n`);
      const checks: Array<() => CheckResult | Promise<CheckResult>> = [
        () => checkLibreOffice(ctx, log),
        () => checkFonts(),
        () => checkSandbox(ctx),
        () => checkProofKey(ctx),
        () => checkCertificate(ctx),
        () => checkPublicUrl(ctx),
        () => checkWebSocket(ctx),
        () => checkUpload(ctx),
        () => checkClock(ctx),
      ];
      const results: CheckResult[] = [];
      for (const check of checks) {
        const r = await check();
        results.push(r);
        process.stdout.write(`${formatResult(r)}\n`);
      }
      const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
      process.stdout.write(`${results.length} checks: ${count('ok')} ok, ${count('warn')} warn, ${count('FAIL')} FAIL\n`);
      process.exitCode = count('FAIL') > 0 ? 1 : 0;
    });
}
