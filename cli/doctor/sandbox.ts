import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeSandbox, SANDBOX_FIX } from '../../daemon/server/index.ts';
import type { CheckResult, DoctorContext } from './check.ts';

/**
 * The kits' sandbox (issue 18, docs/security.md): runs bubblewrap with the kits' own options and seccomp filter
 * around `node -e` and reads `security.sandbox` and `net.lok_allow.host`. `ok`: kits will run sandboxed; `FAIL`:
 * bubblewrap cannot run and the daemon would refuse to start (`required`) or run kits unconfined (`auto`); `warn`:
 * the sandbox is switched off.
 */
export function checkSandbox(ctx: DoctorContext): CheckResult {
  const mode = ctx.config.security.sandbox;
  const allowed = ctx.config.net.lok_allow.host;
  const external = allowed.length ? `external data from ${allowed.join(', ')}` : 'no external data';
  if (mode === 'off') {
    return {
      name: 'sandbox',
      status: 'warn',
      detail: 'security.sandbox is off: kits run unconfined (a document can reach the network and every file Ode can read)',
      fix: 'set security.sandbox: auto (or required) and restart Ode',
    };
  }
  const scratch = mkdtempSync(join(tmpdir(), 'ode-doctor-sandbox-'));
  try {
    const probe = probeSandbox(scratch);
    if (probe.ok) return { name: 'sandbox', status: 'ok', detail: `kits run in bubblewrap (${probe.detail}); security.sandbox: ${mode}; ${external}` };
    const consequence = mode === 'required' ? 'Ode refuses to start (security.sandbox: required)' : 'kits run WITHOUT a sandbox (security.sandbox: auto)';
    return { name: 'sandbox', status: 'FAIL', detail: `${probe.detail}: ${consequence}`, fix: SANDBOX_FIX };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
