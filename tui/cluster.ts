/**
 * The cluster view's data (docs/deploy/cluster.md, docs/tui.md "Several nodes"): one admin endpoint per Ode node,
 * each asked `status.get` and `documents.list` every interval over its own admin client. A node that does not
 * answer keeps its last known values and says why (a drained node that exited, a killed one). Pure state below,
 * the polling in startClusterFlow.
 */
import { createAdminClient, type AdminClient } from './client.ts';
import { describeError } from './data.ts';
import type { DocumentInfo, ServerStatus } from './types.ts';

/** Where to reach one node's admin API, and its token. */
export interface ClusterEndpoint {
  /** `http://host:port` of the node's admin listener. */
  url: string;
  /** The node's admin token, called per request (a rotated token is picked up). */
  token: () => string;
}

/** What the dashboard knows of one node. */
export interface ClusterNodeView {
  /** The admin URL without the scheme (the node's name on screen). */
  target: string;
  /** The last status it answered (kept while it does not answer). */
  status?: ServerStatus;
  documents: DocumentInfo[];
  /** Why the last poll failed; undefined when it answered. */
  error?: string;
  /** When it last answered (ms since the epoch). */
  seenAt?: number;
}

/** The service state to show: the node's own (serving, draining, drained), or `unreachable` when it does not answer. */
export function nodeState(n: ClusterNodeView): 'serving' | 'draining' | 'drained' | 'unreachable' | 'connecting' {
  if (n.error) return 'unreachable';
  return n.status?.node ?? 'connecting';
}

/** The running flow. */
export interface ClusterFlow {
  /** Polls every node once now (also done every interval). */
  poll(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts polling `endpoints` every `intervalMs` (default 2000); `onChange` gets the views of all nodes, in the
 * endpoints' order, after each round.
 */
export function startClusterFlow(endpoints: ClusterEndpoint[], onChange: (nodes: ClusterNodeView[]) => void, intervalMs = 2000): ClusterFlow {
  const clients: AdminClient[] = endpoints.map((e) => createAdminClient({ url: e.url, token: e.token }));
  let nodes: ClusterNodeView[] = endpoints.map((e) => ({ target: e.url.replace(/^https?:\/\//, ''), documents: [] }));
  let stopped = false;
  const pollOne = async (i: number): Promise<ClusterNodeView> => {
    const { trpc } = clients[i];
    try {
      const [status, documents] = await Promise.all([trpc.status.get.query(), trpc.documents.list.query()]);
      return { target: nodes[i].target, status, documents, seenAt: Date.now() };
    } catch (e) {
      return { ...nodes[i], error: describeError(e).text };
    }
  };
  let running: Promise<void> | undefined;
  const poll = () => {
    running ??= Promise.all(endpoints.map((_, i) => pollOne(i))).then((next) => {
      running = undefined;
      if (stopped) return;
      nodes = next;
      onChange(nodes);
    });
    return running;
  };
  const timer = setInterval(() => void poll(), intervalMs);
  void poll();
  return {
    poll,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}
