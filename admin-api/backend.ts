/**
 * The contract between the admin API and the daemon: everything the tRPC routers need, as one interface the
 * daemon implements (daemon/server/admin/). admin-api imports nothing from the daemon; the daemon mounts the
 * router with its backend. Times are milliseconds since the epoch, durations milliseconds, sizes bytes.
 */

/** Stable error codes of the admin API (docs/admin-api.md). */
export type AdminErrorCode =
  /** No open document / kit with that id. */
  | 'not_found'
  /** A configuration edit did not validate; `problems` says why, the file is unchanged. */
  | 'invalid_config'
  /** Ode runs without a configuration file, so an edit could not be written back. */
  | 'no_config_file'
  /** The configuration file could not be written (permissions, disk). */
  | 'config_write_failed'
  /** The document cannot be saved now (read-only, conflict, no kit). */
  | 'save_failed'
  /** The update check is not configured (update_url is empty). */
  | 'updates_not_configured';

/** An error the backend reports to an admin; the router maps it to a tRPC error carrying `code` and `problems`. */
export class AdminError extends Error {
  constructor(
    readonly code: AdminErrorCode,
    message: string,
    /** For invalid_config: one line per problem, `key: value: what is allowed`. */
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

/** Memory and CPU of one process. */
export interface ProcessUsage {
  pid: number;
  /** Resident set size, bytes. */
  rssBytes: number;
  /** CPU use since the previous sample, percent of one core (0-100 per core; may exceed 100). */
  cpuPercent: number;
}

/** What a kit process is doing. */
export type KitState = 'starting' | 'ready' | 'busy' | 'editing' | 'stopping';

/** One kit (a LibreOffice child process). */
export interface KitStatus extends ProcessUsage {
  state: KitState;
  /** When the kit was spawned. */
  startedAt: number;
  /** Jobs run so far (conversions, structure jobs, documents). */
  jobs: number;
  /** The open document's id when state is `editing`. */
  documentId?: string;
}

/** Counts of failures since start, and the last one of each kind. */
export interface FailureCounts {
  saves: number;
  uploads: number;
  conversions: number;
  lastSave?: { at: number; documentId: string; message: string };
  lastUpload?: { at: number; documentId: string; message: string };
}

/** The node's place behind a load balancer: serving, draining (`node.drain` running), drained (docs/deploy/cluster.md). */
export type NodeState = 'serving' | 'draining' | 'drained';

/** The end of a drain (admin API `node.drain`). */
export interface DrainInfo {
  state: NodeState;
  /** Documents saved, uploaded and closed by the drain, and their views told to reconnect (close 4503). */
  documents: number;
  views: number;
  /** From the start of the drain to the last document closed, ms. */
  ms: number;
  /** The daemon stops now (the drain was asked with exit: true). */
  exiting: boolean;
}

/** The daemon at a glance (admin API `status.get`). */
export interface ServerStatus {
  version: string;
  versionHash: string;
  /**
   * How the daemon runs: `compiled` from the bundle set-up builds (dist/, no TypeScript loader in any process), or
   * `sources` through tsx (a checkout being edited, the tests).
   */
  runtime: 'compiled' | 'sources';
  serverId: string;
  /** Serving, or taken out of service by a drain (docs/deploy/cluster.md). */
  node: NodeState;
  startedAt: number;
  uptimeMs: number;
  /** The daemon process itself. */
  daemon: ProcessUsage;
  kits: KitStatus[];
  /** kits.max of the configuration. */
  maxKits: number;
  /** Conversions waiting for a kit, and the most allowed (limits.queue). */
  queue: { length: number; max: number };
  documents: number;
  views: number;
  failures: FailureCounts;
  /** Conversions finished since start, by result. */
  conversions: { ok: number; failed: number };
  /**
   * The public listener's certificate when it serves HTTPS (ssl.enable; docs/tls.md): subject, notAfter (ISO 8601),
   * whole days left, and expiresSoon within 30 days.
   */
  certificate?: { subject: string; notAfter: string; daysLeft: number; expiresSoon: boolean };
  /** True when storage.ssl.verify is false: WOPI and settings hosts' certificates are not verified (tests only). */
  insecureHostTls?: boolean;
}

/** One user's view of an open document. */
export interface DocumentViewInfo {
  viewId: number;
  userId: string;
  userName: string;
  readOnly: boolean;
  joinedAt: number;
}

/** Lifecycle state of an open document (daemon/server/documents/edit-document.ts). */
export type DocumentState = 'opening' | 'live' | 'reloading' | 'recovering' | 'unloading' | 'closed';

/**
 * A copy of a document's edits the host does not have yet (admin API `documents.recovery`; docs/reliability.md): a
 * save the host did not take, or a document rebuilt from an edit journal after a daemon crash. `state` says why it
 * is pending: being uploaded, the host unavailable (tried again), `conflict` (the stored file changed meanwhile: the
 * copy is kept, not overwritten), `token_expired` (access_token_ttl passed or 401), `failed` (refused otherwise).
 * Kept under `<state_dir>/recovery/pending/<id>` until the host stored it.
 */
export interface RecoveryCopyInfo {
  id: string;
  fileName: string;
  host: string;
  /** The WOPISrc without its query. */
  document: string;
  bytes: number;
  createdAt: number;
  source: 'upload' | 'journal';
  state: 'uploading' | 'host_unavailable' | 'conflict' | 'token_expired' | 'failed';
  error?: string;
}

/** An open document (admin API `documents.list`). */
export interface DocumentInfo {
  /** Stable id for the admin API while the document is open. */
  id: string;
  fileName: string;
  /** The WOPI host's origin, e.g. `https://cloud.example.org`. */
  host: string;
  state: DocumentState;
  /** Unsaved changes in the kit, or a save not yet uploaded. */
  modified: boolean;
  views: DocumentViewInfo[];
  openedAt: number;
  lastSaveAt?: number;
  lastUploadAt?: number;
  /** The last upload's failure, cleared by a successful upload. */
  lastUploadError?: string;
  kitPid?: number;
  kitRssBytes?: number;
}

/** A change to the set of open documents (admin API `documents.events`). */
export type DocumentEvent = { type: 'opened'; document: DocumentInfo } | { type: 'changed'; document: DocumentInfo } | { type: 'closed'; id: string };

/** The configuration values an admin may edit (all applied live and written back to the file). */
export interface EditableConfig {
  /** net.content_security_policy, HTTP header format. */
  contentSecurityPolicy: string;
  /** The sources of its frame-ancestors directive (a view of contentSecurityPolicy). */
  frameAncestors: string[];
  /** net.post_allow.host: regular expressions on the caller's address. */
  postAllowHosts: string[];
  /** storage.wopi.hosts: regular expressions on the WOPI host name. */
  wopiHosts: string[];
}

/** One edit: the key and its whole new value. */
export type ConfigEdit =
  | { key: 'contentSecurityPolicy'; value: string }
  | { key: 'frameAncestors'; value: string[] }
  | { key: 'postAllowHosts'; value: string[] }
  | { key: 'wopiHosts'; value: string[] };

/** The effective configuration (admin API `config.get`). */
export interface EffectiveConfig {
  /** The configuration file, or undefined when Ode runs on defaults and environment only. */
  file?: string;
  /** The whole configuration in force, as JSON. */
  values: Record<string, unknown>;
  editable: EditableConfig;
}

/** The WOPI proof key (admin API `proofKey.get`). */
export interface ProofKeyInfo {
  /** SHA-256 of the public key (SPKI DER), hex pairs separated by colons. */
  fingerprint: string;
  created: number;
  oldFingerprint: string;
  oldCreated: number;
}

/** The update check's answer (admin API `updates.get`; spec: Update check). */
export interface UpdateInfo {
  /** Whether updates.url is configured. */
  configured: boolean;
  url?: string;
  /** The product name sent as `product`. */
  product: string;
  current: string;
  /** `odewsd_version` of the last good answer. */
  available?: string;
  /** available is a newer version than current. */
  newer: boolean;
  checkedAt?: number;
  /** Why the last check failed (network, status, body); the last good answer stays cached. */
  error?: string;
}

/** pino level names. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** One log line. */
export interface LogLine {
  /** Increasing number of the line since start. */
  seq: number;
  time: number;
  level: LogLevel;
  msg: string;
  /** The line's other fields (doc, kit, err, ...), without time/level/msg/pid/hostname. */
  fields: Record<string, unknown>;
}

/** Unsubscribes a listener. */
export type Unsubscribe = () => void;

/**
 * What the daemon provides to the admin API. Methods throw AdminError for the failures an admin can act on;
 * anything else is a bug and becomes INTERNAL_SERVER_ERROR.
 */
export interface AdminBackend {
  /** The daemon, its kits, queue and failures now (samples CPU since the previous call). */
  status(): Promise<ServerStatus>;
  /** The open documents. */
  documents(): Promise<DocumentInfo[]>;
  /** Saves the document now (and uploads it). @throws AdminError not_found, save_failed */
  saveDocument(id: string): Promise<{ saved: boolean }>;
  /** Saves the document when modified, then closes it and its views (close code 4408-like "closed by admin"). @throws AdminError not_found */
  closeDocument(id: string): Promise<void>;
  /** Kills a kit process (SIGKILL): its document's views are told the document closed; conversions on it fail. @throws AdminError not_found */
  killKit(pid: number): Promise<void>;
  /** The recovery copies not stored yet (RecoveryCopyInfo). */
  recoveryCopies(): RecoveryCopyInfo[];
  /** Listens to documents opening, changing (views, modified, saved, uploaded) and closing. */
  onDocumentEvent(fn: (e: DocumentEvent) => void): Unsubscribe;
  /**
   * Takes the node out of service (docs/deploy/cluster.md): /health answers 503, new documents are refused, every
   * open document is saved and uploaded and its views reconnect through the load balancer; resolves once no
   * document is open. `exit`: the daemon then stops (exit code 0). A second call joins the running drain.
   */
  drain(exit: boolean): Promise<DrainInfo>;
  /** The effective configuration. */
  config(): EffectiveConfig;
  /**
   * Validates the edit, writes it back to the configuration file (comments kept) and applies it live.
   * @throws AdminError invalid_config (file unchanged), no_config_file, config_write_failed
   */
  editConfig(edit: ConfigEdit): Promise<EffectiveConfig>;
  proofKey(): ProofKeyInfo;
  /** Rotates the proof key: the current key becomes the old one; discovery changes at once. */
  rotateProofKey(): ProofKeyInfo;
  /** The cached update check; `refresh` asks the update server again now. */
  updates(refresh: boolean): Promise<UpdateInfo>;
  /** The most recent log lines (oldest first), at most `limit`, at or above `level`. */
  logs(limit: number, level: LogLevel): LogLine[];
  /** Listens to every new log line. */
  onLog(fn: (line: LogLine) => void): Unsubscribe;
}
