import { expect } from 'vitest';
import { docxText } from '../helpers/docx.ts';
import { EditorClient } from '../helpers/editor-client.ts';
import type { Balancer, Cluster } from './cluster-setup.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The median of `xs` (the lower one of an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** The node the balancer sends a request for `src` to: /health?WOPISrc= through it, its status and X-Ode-Server-Id. */
export async function probe(balancer: Balancer, src: string): Promise<{ status: number; serverId: string }> {
  const r = await balancer.fetch(`${balancer.url}/health?WOPISrc=${encodeURIComponent(src)}`);
  await r.arrayBuffer();
  return { status: r.status, serverId: r.headers.get('x-ode-server-id') ?? '' };
}

/** One time the user's view was lost and came back. */
export interface Move {
  /** The close code of the lost view (4503 drained, 1006 a killed node). */
  code: number;
  /** Date.now() when the view closed, when the balancer first answered 200 for the WOPISrc, when the view was live again. */
  closedAt: number;
  routedAt: number;
  backAt: number;
  /** The node the view is on now. */
  to: string;
  /** The lost view was told `draining` before its close (a drain's close without it lost the words typed meanwhile). */
  told: boolean;
}

/**
 * One user typing words (`<id>w<n> `, a word every `wordMs`, 60 ms by default) into one document through the balancer, as the editor
 * does when its node goes: after `draining` it stops typing; when the socket closes (4503 after a drain, 1006 when
 * the node was killed) it asks /health?WOPISrc= through the balancer until a serving node answers 200, then opens
 * the document again with the same WOPISrc and token (daemon/editor/src/host/move.ts, reconnect.ts).
 */
/**
 * Picks documents by where the balancer sends them: tries WOPISrc `<prefix>0`, `<prefix>1`, ... (up to 200) and
 * keeps each one whose node (serverId) still wants documents in `want` (serverId -> count), adding it to the
 * host as `<id>.docx` with `docx`'s bytes; returns one Typist per kept document (not yet opened).
 */
export async function typistsOn(
  balancer: Balancer,
  host: { fileUrl(id: string): string; addFile(id: string, name: string, bytes: Buffer): string; token: string },
  want: Map<string, number>,
  prefix: string,
  docx: Buffer,
): Promise<Typist[]> {
  const total = [...want.values()].reduce((a, b) => a + b, 0);
  const typists: Typist[] = [];
  for (let i = 0; typists.length < total && i < 200; i++) {
    const id = `${prefix}${i}`;
    const { serverId } = await probe(balancer, host.fileUrl(id));
    if ((want.get(serverId) ?? 0) > 0) {
      want.set(serverId, want.get(serverId)! - 1);
      typists.push(new Typist(id, host.addFile(id, `${id}.docx`, docx), balancer, host.token));
    }
  }
  return typists;
}

/**
 * Ends the users' typing and closes their views (the last view leaving saves and uploads), after giving LibreOffice a
 * second for the last posted keys: the exit save of a view closing right after typing can miss them on a loaded
 * machine (kit/input-order.ts waits by a heuristic), which is not what the cluster tests check.
 */
export async function stopAndClose(typists: Typist[]): Promise<void> {
  await Promise.all(typists.map((t) => t.stop()));
  await sleep(1000);
  for (const t of typists) await t.close();
}

/** What missingWords reads of a user: a Typist, or a test's own typing user (haproxy.test.ts). */
export interface TypedWords {
  readonly id: string;
  /** Every word sent on a live socket, in order. */
  readonly typed: readonly string[];
  /** The nodes (serverId) the user was on, in order. */
  readonly nodes: readonly string[];
  readonly moves?: readonly Move[];
  /** How many words were typed when the view was told `draining`. */
  readonly typedBeforeDrain?: number;
}

/**
 * The words `t` typed that `storedText` (the stored document's text) lacks, compared word by word in lower case
 * (LibreOffice's autocorrect capitalises a sentence's first), so "t0w1" is not found inside "t0w10". Missing words
 * are logged with where they were typed, the user's nodes and moves (or words typed before the drain), when given.
 */
export function missingWords(t: TypedWords, storedText: string): string[] {
  const stored = new Set(storedText.toLowerCase().split(/\s+/));
  const missing = t.typed.filter((w) => !stored.has(w.toLowerCase()));
  if (missing.length)
    console.log(
      JSON.stringify({
        id: t.id,
        missing,
        at: missing.map((w) => t.typed.indexOf(w)),
        typed: t.typed.length,
        beforeDrain: t.typedBeforeDrain,
        nodes: t.nodes,
        moves: t.moves,
        stored: [...stored].join(' '),
      }),
    );
  return missing;
}

/**
 * The end of a cluster test's typing: stopAndClose, then up to 30 s for no node of `c` to hold the users' documents
 * (their exit saves uploaded); then each user's stored file must hold every word typed, more than `minWords` of them.
 */
export async function expectEveryWordStored(c: Pick<Cluster, 'nodes' | 'host'>, typists: Typist[], minWords = 20): Promise<void> {
  await stopAndClose(typists);
  const idle = Date.now() + 30_000;
  const open = () => c.nodes.some((n) => n.daemon.server.documents.list().some((d) => typists.some((t) => t.src === d.key)));
  while (open() && Date.now() < idle) await sleep(100);
  for (const t of typists) {
    const missing = missingWords(t, docxText(c.host.files.get(t.id)!.bytes));
    expect({ id: t.id, missing }).toEqual({ id: t.id, missing: [] });
    expect(t.typed.length).toBeGreaterThan(minWords);
  }
}

export class Typist {
  /** Every word sent on a live socket, in order. */
  readonly typed: string[] = [];
  /** Date.now() when each word of `typed` was sent. */
  readonly typedAt: number[] = [];
  /** The nodes (serverId) the user was on, in order. */
  readonly nodes: string[] = [];
  readonly moves: Move[] = [];
  client!: EditorClient;
  /** Set to stop typing (the loop ends after the word being sent). */
  paused = false;
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    readonly id: string,
    readonly src: string,
    private readonly balancer: Balancer,
    private readonly token: string,
    private readonly wordMs = 60,
  ) {}

  /** Opens the document through the balancer (the view live: `status` received). */
  async open(timeoutMs = 90_000): Promise<void> {
    this.client = (await EditorClient.open(this.balancer.url, this.src, { token: this.token }, timeoutMs, this.balancer.wsOptions)).client;
    this.nodes.push(this.client.serverId!);
  }

  /** Starts typing in the background (until stop()). */
  start(): void {
    this.loop = this.run();
  }

  /** Stops typing; resolves once the loop ended (a reconnection in progress finishes first). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Closes the view (the last view leaving saves the document: exit save). */
  async close(): Promise<void> {
    this.client.close();
    await this.client.closed();
  }

  private async run(): Promise<void> {
    let n = 0;
    while (!this.stopped) {
      const { client } = this;
      if (client.closeCode === undefined && !client.messages.some((m) => m.type === 'draining')) {
        if (this.paused) {
          await sleep(50);
          continue;
        }
        const word = `${this.id}w${n++}`;
        client.type(`${word} `);
        this.typed.push(word);
        this.typedAt.push(Date.now());
        await sleep(this.wordMs);
        continue;
      }
      if (client.closeCode === undefined) {
        await client.closed(60_000);
        continue;
      }
      const closedAt = Date.now();
      const told = client.messages.some((m) => m.type === 'draining');
      let routedAt = 0;
      for (;;) {
        const { status } = await probe(this.balancer, this.src).catch(() => ({ status: 0 }));
        if (status === 200) {
          routedAt ||= Date.now();
          try {
            await this.open();
            break;
          } catch {
            // The balancer moved on meanwhile (a node drained again, a kit not ready): ask again.
          }
        }
        if (Date.now() - closedAt > 120_000) throw new Error(`${this.id}: no node took the document back within 120 s`);
        await sleep(100);
      }
      this.moves.push({ code: client.closeCode, closedAt, routedAt, backAt: Date.now(), to: this.client.serverId!, told });
    }
  }
}
