import { Command } from 'commander';
import { join } from 'node:path';
import { certificateInfo } from '../certs/cert-info.ts';
import { DEFAULT_CERT_NAMES, MAX_SERVER_CERT_DAYS, generateCertificateFiles, parseCertNames } from '../certs/server-cert.ts';
import { readFileSync } from 'node:fs';
import { loadRuntime } from './runtime.ts';

/** The text `ode certs generate` prints: the files, the config lines to paste, and how to trust the CA. */
function report(g: ReturnType<typeof generateCertificateFiles>, names: string[]): string {
  const leaf = certificateInfo(readFileSync(g.cert, 'utf8'));
  const ca = certificateInfo(readFileSync(g.caCert, 'utf8'));
  return `${g.reusedCa ? 'Reused the local CA' : 'Created a local CA'}: ${g.caCert} (key ${g.caKey}, mode 0600)
  ${ca.subject}, valid until ${ca.notAfter}
Server certificate: ${g.cert} (key ${g.key}, mode 0600)
  for ${names.join(', ')}; valid until ${leaf.notAfter}; SHA-256 ${leaf.fingerprint256}

Paste into ode.yaml (the files are re-read when they change; switching ssl.enable needs a restart):
ssl:
  enable: true
  cert_file: ${g.cert}
  key_file: ${g.key}

Trust the CA on the machines that open Ode:
  Debian/Ubuntu: sudo cp ${g.caCert} /usr/local/share/ca-certificates/ode-local-ca.crt && sudo update-ca-certificates
  Firefox:       Settings > Privacy & Security > Certificates > View Certificates > Authorities > Import ${g.caCert}
  Chrome/Edge:   Settings > Privacy and security > Security > Manage certificates > Authorities > Import ${g.caCert}
  Node clients:  NODE_EXTRA_CA_CERTS=${g.caCert}
  A WOPI host's own CA goes into storage.ssl.ca_file instead (Ode's requests to hosts).
`;
}

/**
 * `ode certs generate [--names localhost,127.0.0.1,::1] [--out <dir>] [--days 825]`: a local CA (reused when
 * present) and a server certificate signed by it, written to `<state_dir>/certs/` or --out (docs/tls.md).
 */
export function certsCommand(): Command {
  const cmd = new Command('certs').description('TLS certificates for local use (a local CA and a server certificate)');
  cmd
    .command('generate')
    .description('create (or reuse) a local CA and issue a server certificate for the given names')
    .option('--names <list>', 'comma-separated DNS names and IP addresses', DEFAULT_CERT_NAMES.join(','))
    .option('--out <dir>', 'output directory (default: <state_dir>/certs)')
    .option('--days <n>', `validity of the server certificate in days (at most ${MAX_SERVER_CERT_DAYS})`, String(MAX_SERVER_CERT_DAYS))
    .action((o: { names: string; out?: string; days: string }, c: Command) => {
      const dir = o.out ?? join(loadRuntime(c, 'warn').store.get().state_dir, 'certs');
      try {
        const names = parseCertNames(o.names);
        const generated = generateCertificateFiles(dir, { names, days: Number(o.days) });
        process.stdout.write(report(generated, names));
      } catch (e) {
        // One line naming what to change, not a stack trace (exit status 1).
        c.error(`ode certs generate: ${(e as Error).message}`);
      }
    });
  return cmd;
}
