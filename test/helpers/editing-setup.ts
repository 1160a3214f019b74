import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createContextInner } from '../../admin-api/context.ts';
import { appRouter } from '../../admin-api/router.ts';
import { createCallerFactory } from '../../admin-api/trpc.ts';
import { createAdminClient, type AdminTestClient } from './admin-client.ts';
import { documentsClosed, startDaemon, type TestDaemon } from './daemon.ts';
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

/** How startEditing starts the daemon: kits, and `documents` settings over the defaults (saves only when asked). */
export interface EditingOptions {
  readyKits: number;
  maxKits: number;
  fakeKits?: boolean;
  /** Config `documents` keys over check_secs 0, idle_save_secs and autosave_secs 3600. */
  documents?: Record<string, number>;
}

/**
 * Starts the setup of the editor-protocol tests: a fake WOPI host that checks the daemon's proofs with discovery's
 * key, and a daemon with at most `maxKits` kits of which `readyKits` are prespawned and ready, where documents are
 * saved only when asked (storage check, idle save and autosave off). If starting fails, what did start is stopped
 * and the error is rethrown. `fakeKits`: the kits are fake kits (no LibreOffice; startDaemon).
 */
export async function startEditing(opts: EditingOptions): Promise<EditingSetup> {
  const host = await FakeWopiHost.start();
  const documents = { check_secs: 0, idle_save_secs: 3600, autosave_secs: 3600, ...opts.documents };
  const daemon = await startDaemon({ kits: { prespawn: opts.readyKits, max: opts.maxKits }, documents }, opts.readyKits, 0, { fakeKits: opts.fakeKits }).catch(
    async (e: unknown) => {
      await host.stop();
      throw e;
    },
  );
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
export function useEditing(opts: EditingOptions): EditingSetup {
  const env = {} as EditingSetup;
  beforeAll(async () => {
    Object.assign(env, await startEditing(opts));
  });
  afterAll(async () => {
    await env.stop?.();
  });
  return env;
}

/** The admin API router of `daemon` called in-process (tRPC createCaller over its admin backend). */
function adminCaller(daemon: TestDaemon) {
  return createCallerFactory(appRouter)(createContextInner(daemon.server.admin.backend));
}

/** A view opened by DocumentTests: the client, its `status`, and the file's WOPISrc. */
export type DocumentView = OpenedView & { src: string };

/** The editing setup of a describe block or file whose tests each open their own documents (useDocumentTests). */
export interface DocumentTests {
  daemon: TestDaemon;
  host: FakeWopiHost;
  /** The running test's number (1 for the first): file ids made with it are new in each test. */
  n: number;
  /** Adds file `id` to the host (`bytes` named `name`, CheckFileInfo `info` over the host's) and opens it as one more view. */
  open(id: string, info?: Record<string, unknown>, bytes?: Buffer, name?: string): Promise<DocumentView>;
  /** Opens file `id` as one more view, first adding it (the set-up's file, named `name`) when the host has no such file. */
  openFile(id: string, name?: string): Promise<EditorClient>;
  /** Opens `wopiSrc` as one more view (with `tokenTtl` when given). */
  openSrc(wopiSrc: string, tokenTtl?: number): Promise<OpenedView>;
  /** Closes the views the running test opened. */
  closeViews(): void;
  /** With `admin: true`: an admin API client of the daemon over HTTP and WebSocket (closed after all tests). */
  admin: AdminTestClient;
  /** The admin API router called in-process (tRPC createCaller over the daemon's admin backend). */
  caller(): ReturnType<typeof adminCaller>;
}

/**
 * For the describe block (or file) it is called in: startEditing(opts) before all tests, stopped after them; before
 * each test `n` counts up; after each, the views the test opened close and the daemon's documents are waited out
 * (exit saves, kits retired) so the next test gets kits. `file` (named `name`, default letter.docx): what open()
 * adds unless given other bytes. `admin`: an admin API client too.
 * @throws Error from the afterEach hook when documents are still open 30 s after their views closed.
 */
export function useDocumentTests(opts: EditingOptions & { file: Buffer; name?: string; admin?: boolean }): DocumentTests {
  let setup: EditingSetup | undefined;
  const clients: EditorClient[] = [];
  const env: DocumentTests = {
    n: 0,
    async open(id, info = {}, bytes = opts.file, name = opts.name ?? 'letter.docx') {
      const src = env.host.addFile(id, name, bytes, info);
      return { ...(await env.openSrc(src)), src };
    },
    async openFile(id, name) {
      return (env.host.files.has(id) ? await env.openSrc(env.host.fileUrl(id)) : await env.open(id, {}, opts.file, name)).client;
    },
    async openSrc(wopiSrc, tokenTtl) {
      const view = await EditorClient.open(env.daemon.url, wopiSrc, { token: env.host.token, ...(tokenTtl === undefined ? {} : { tokenTtl }) });
      clients.push(view.client);
      return view;
    },
    closeViews() {
      for (const c of clients.splice(0)) c.close();
    },
    caller() {
      return adminCaller(env.daemon);
    },
  } as DocumentTests;
  beforeAll(async () => {
    setup = await startEditing(opts);
    env.daemon = setup.daemon;
    env.host = setup.host;
    if (opts.admin) env.admin = createAdminClient(env.daemon.adminUrl!, env.daemon.adminToken);
  }, 120_000);
  afterAll(async () => {
    env.closeViews();
    await env.admin?.close();
    await setup?.stop();
  });
  beforeEach(() => {
    env.n++;
  });
  afterEach(async () => {
    env.closeViews();
    if (!(await documentsClosed(env.daemon.server, 30_000, 50)))
      throw new Error(`documents still open 30 s after their views closed: ${env.daemon.server.documents.list().length}`);
  });
  return env;
}
