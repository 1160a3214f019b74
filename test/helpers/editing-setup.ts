import { afterAll, beforeAll } from 'vitest';
import { startDaemon, type TestDaemon } from './daemon.ts';
import { EditorClient } from './editor-client.ts';
import { FakeWopiHost, publicKeyFromDiscovery } from './fake-wopi-host.ts';

/** What `EditorClient.open` resolves with: the client and the `status` message of its live view. */
type OpenedView = Awaited<ReturnType<typeof EditorClient.open>>;

/** A fake WOPI host, a real daemon, and the editor clients a test opened through `open`. */
export interface EditingSetup {
  daemon: TestDaemon;
  host: FakeWopiHost;
  /** Opens `wopiSrc` as one more view with the host's access token; the client is closed by `stop()`. */
  open(wopiSrc: string): Promise<OpenedView>;
  /** Closes every client opened with `open`, then stops the daemon and the host. */
  stop(): Promise<void>;
}

/**
 * Starts the setup of the editor-protocol tests: a fake WOPI host that checks the daemon's proofs with discovery's
 * key, and a daemon with at most `maxKits` kits of which `readyKits` are prespawned and ready, where documents are
 * saved only when asked (storage check, idle save and autosave off). If starting fails, what did start is stopped
 * and the error is rethrown. `fakeKits`: the kits are fake kits (no LibreOffice; startDaemon).
 */
export async function startEditing(opts: { readyKits: number; maxKits: number; fakeKits?: boolean }): Promise<EditingSetup> {
  const host = await FakeWopiHost.start();
  const daemon = await startDaemon({ kits: { prespawn: opts.readyKits, max: opts.maxKits }, documents: { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600 } }, opts.readyKits, 0, { fakeKits: opts.fakeKits }).catch(async (e: unknown) => {
    await host.stop();
    throw e;
  });
  try {
    host.proofKey = publicKeyFromDiscovery(await (await fetch(`${daemon.url}/hosting/discovery`)).text());
  } catch (e) {
    await daemon.stop();
    await host.stop();
    throw e;
  }
  const clients: EditorClient[] = [];
  return {
    daemon,
    host,
    async open(wopiSrc) {
      const view = await EditorClient.open(daemon.url, wopiSrc, { token: host.token });
      clients.push(view.client);
      return view;
    },
    async stop() {
      for (const c of clients) c.close();
      await daemon.stop();
      await host.stop();
    },
  };
}

/**
 * For the describe block it is called in: registers a beforeAll that runs `startEditing(opts)` and an afterAll that
 * stops what it started. Returns the object the beforeAll fills in: read it in tests and later hooks.
 */
export function useEditing(opts: { readyKits: number; maxKits: number; fakeKits?: boolean }): EditingSetup {
  const env = {} as EditingSetup;
  beforeAll(async () => {
    Object.assign(env, await startEditing(opts));
  });
  afterAll(async () => {
    await env.stop?.();
  });
  return env;
}
