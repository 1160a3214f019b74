/**
 * The data flow: from the admin API into the dashboard's state. Subscribes to `status.live`,
 * `documents.events` and `logs.follow` (resubscribed by the client after a reconnect, and again here after a
 * server-side error), fetches the lists and values again whenever the connection (re)opens, and runs the
 * operations the user asks for, reporting each as an inline notice.
 */
import { TRPCClientError } from '@trpc/client';
import { createAdminClient, type AdminClientOptions, type ConnectionEvent } from './client.ts';
import type { Action, ConnectionState, Operation, ScreenId } from './state/store.ts';

/** The running data flow. */
export interface DataFlow {
  /** Runs an operation; its progress and result arrive as notices (and data) through `dispatch`. */
  run(op: Operation): Promise<void>;
  /** Fetches documents, configuration, proof key, update check and recent logs again. */
  refresh(): Promise<void>;
  /** Unsubscribes and closes the connection. */
  stop(): Promise<void>;
}

/** What an admin API error says: `adminCode: message` and the problems of a refused config edit. */
export function describeError(e: unknown): { text: string; problems: string[]; unauthorized: boolean } {
  if (e instanceof TRPCClientError) {
    const data = (e.data ?? {}) as { adminCode?: string | null; problems?: string[]; httpStatus?: number };
    const status = data.httpStatus ?? (e.meta?.response as { status?: number } | undefined)?.status;
    if (status === 401) return { text: 'unauthorized: the admin token was refused', problems: [], unauthorized: true };
    const msg = /fetch failed|ECONNREFUSED|WebSocket/i.test(e.message) ? `daemon unreachable (${e.message})` : e.message;
    return { text: data.adminCode ? `${data.adminCode}: ${msg}` : msg, problems: data.problems ?? [], unauthorized: false };
  }
  return { text: (e as Error)?.message ?? String(e), problems: [], unauthorized: false };
}

/** Options of the data flow: the client's, the status interval, and where to send actions. */
export interface DataFlowOptions extends Omit<AdminClientOptions, 'onConnection'> {
  dispatch(action: Action): void;
  /** status.live interval, ms (default 2000). */
  statusIntervalMs?: number;
  /** Pause before subscribing again after a subscription failed on the server, ms (default 2000). */
  resubscribeMs?: number;
}

/** Starts the client and the data flow. */
export function startDataFlow(opts: DataFlowOptions): DataFlow {
  const { dispatch } = opts;
  let stopped = false;
  let connection: ConnectionState = { kind: 'connecting', since: Date.now() };
  const setConnection = (c: ConnectionState) => {
    connection = c;
    dispatch({ type: 'connection', connection: c });
  };
  const onConnection = (e: ConnectionEvent) => {
    if (stopped) return;
    if (e.type === 'open') {
      setConnection({ kind: 'connected', since: Date.now() });
      void flow.refresh();
    } else if (e.type === 'unauthorized') {
      if (connection.kind !== 'unauthorized') setConnection({ kind: 'unauthorized', since: Date.now() });
    } else if (connection.kind === 'connected' || connection.kind === 'connecting') {
      setConnection({ kind: 'reconnecting', since: Date.now(), reason: e.reason });
    }
  };
  const client = createAdminClient({ ...opts, onConnection });
  const { trpc } = client;

  const timers = new Set<NodeJS.Timeout>();
  const subscriptions: Array<{ unsubscribe(): void }> = [];
  /** Subscribes with `start`, and again `resubscribeMs` after the server ends it with an error. */
  const keep = (what: 'status' | 'documents' | 'logs', start: (onError: (e: unknown) => void) => { unsubscribe(): void }) => {
    const onError = (e: unknown) => {
      if (stopped) return;
      dispatch({ type: 'error', what, message: describeError(e).text });
      const t = setTimeout(() => {
        timers.delete(t);
        if (!stopped) subscriptions.push(start(onError));
      }, opts.resubscribeMs ?? 2000);
      timers.add(t);
    };
    subscriptions.push(start(onError));
  };
  keep('status', (onError) =>
    trpc.status.live.subscribe({ intervalMs: opts.statusIntervalMs ?? 2000 }, { onData: (status) => dispatch({ type: 'status', status }), onError }),
  );
  keep('documents', (onError) => trpc.documents.events.subscribe(undefined, { onData: (event) => dispatch({ type: 'documentEvent', event }), onError }));
  keep('logs', (onError) => trpc.logs.follow.subscribe({ level: 'trace' }, { onData: (line) => dispatch({ type: 'log', line }), onError }));

  /** Runs `q`, dispatching its value or its error under `what`. */
  const load = async <T>(what: 'documents' | 'recovery' | 'config' | 'proofKey' | 'updates' | 'logs', q: () => Promise<T>, ok: (v: T) => Action) => {
    try {
      dispatch(ok(await q()));
    } catch (e) {
      const d = describeError(e);
      if (d.unauthorized) onConnection({ type: 'unauthorized' });
      dispatch({ type: 'error', what, message: d.text });
    }
  };

  // The recovery copies change without a document event (a retried upload at the daemon's start): asked again every 10 s.
  const recoveryPoll = setInterval(() => {
    if (!stopped && connection.kind === 'connected')
      void load(
        'recovery',
        () => trpc.documents.recovery.query(),
        (copies) => ({ type: 'recovery', copies }),
      );
  }, 10_000);
  recoveryPoll.unref();
  timers.add(recoveryPoll);

  /** Shows `text` as a notice on `screen`. */
  const notice = (screen: ScreenId, kind: 'busy' | 'ok' | 'error', text: string, problems?: string[]) =>
    dispatch({ type: 'notice', notice: { screen, kind, text, problems } });

  const flow: DataFlow = {
    async refresh() {
      await Promise.all([
        load(
          'documents',
          () => trpc.documents.list.query(),
          (documents) => ({ type: 'documents', documents }),
        ),
        load(
          'recovery',
          () => trpc.documents.recovery.query(),
          (copies) => ({ type: 'recovery', copies }),
        ),
        load(
          'config',
          () => trpc.config.get.query(),
          (config) => ({ type: 'config', config }),
        ),
        load(
          'proofKey',
          () => trpc.proofKey.get.query(),
          (proofKey) => ({ type: 'proofKey', proofKey }),
        ),
        load(
          'updates',
          () => trpc.updates.get.query({ refresh: false }),
          (updates) => ({ type: 'updates', updates }),
        ),
        load(
          'logs',
          () => trpc.logs.recent.query({ limit: 500, level: 'trace' }),
          (lines) => ({ type: 'logs', lines }),
        ),
      ]);
    },
    async run(op) {
      const screen: ScreenId = op.type === 'rotate' ? 'proofKey' : op.type === 'refreshUpdates' ? 'updates' : op.type === 'editConfig' ? 'config' : 'documents';
      try {
        switch (op.type) {
          case 'save': {
            notice(screen, 'busy', `saving ${op.name}…`);
            const r = await trpc.documents.save.mutate({ id: op.id });
            notice(screen, 'ok', r.saved ? `saved ${op.name}` : `${op.name}: nothing to save (not modified)`);
            break;
          }
          case 'close':
            notice(screen, 'busy', `closing ${op.name}…`);
            await trpc.documents.close.mutate({ id: op.id });
            dispatch({ type: 'documentEvent', event: { type: 'closed', id: op.id } });
            notice(screen, 'ok', `closed ${op.name}`);
            break;
          case 'kill':
            notice(screen, 'busy', `killing kit ${op.pid}…`);
            await trpc.documents.killKit.mutate({ pid: op.pid });
            notice(screen, 'ok', `killed kit ${op.pid} (${op.name})`);
            break;
          case 'rotate': {
            notice(screen, 'busy', 'rotating the proof key…');
            const proofKey = await trpc.proofKey.rotate.mutate();
            dispatch({ type: 'proofKey', proofKey });
            notice(screen, 'ok', 'rotated: discovery now publishes the new key, the previous one as the old key');
            break;
          }
          case 'refreshUpdates': {
            notice(screen, 'busy', 'asking the update server…');
            const updates = await trpc.updates.get.query({ refresh: true });
            dispatch({ type: 'updates', updates });
            notice(screen, updates.error ? 'error' : 'ok', updates.error ? `check failed: ${updates.error}` : 'checked');
            break;
          }
          case 'editConfig': {
            notice(screen, 'busy', 'saving the configuration…');
            const config = await trpc.config.edit.mutate({ key: op.key, value: op.value });
            dispatch({ type: 'config', config });
            dispatch({ type: 'editing', editing: undefined });
            notice(screen, 'ok', `saved to ${config.file ?? 'the configuration'} and applied`);
            break;
          }
        }
      } catch (e) {
        const d = describeError(e);
        if (d.unauthorized) onConnection({ type: 'unauthorized' });
        // A refused config edit keeps the text input open with what was typed, so it can be fixed.
        notice(screen, 'error', op.type === 'editConfig' ? `refused: ${d.text}` : `failed: ${d.text}`, d.problems);
      }
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      for (const s of subscriptions) s.unsubscribe();
      await client.close();
    },
  };
  return flow;
}
