/**
 * The dashboard's state and its reducer: pure data, no I/O. What the daemon reported (status samples, documents,
 * configuration, proof key, updates, log lines), the connection, and the UI (screen, selection, confirmation,
 * inline notices, the config entry being edited, log filter). The data layer (tui/data.ts) and the keys
 * (tui/keys.ts) dispatch Actions; the screens render a DashboardState.
 */
import type { DocumentEvent, DocumentInfo, EffectiveConfig, LogLevel, LogLine, ProofKeyInfo, RecoveryCopyInfo, ServerStatus, UpdateInfo } from '../types.ts';
import { LOG_LEVELS } from '../types.ts';

/** The screens, in the order of their number keys. */
export const SCREENS = [
  { id: 'overview', title: 'Overview' },
  { id: 'documents', title: 'Documents' },
  { id: 'config', title: 'Config' },
  { id: 'proofKey', title: 'Proof key' },
  { id: 'updates', title: 'Updates' },
  { id: 'logs', title: 'Logs' },
] as const;

/** One screen's id. */
export type ScreenId = (typeof SCREENS)[number]['id'];

/** The admin connection: `since` is when it entered that state (ms since the epoch). */
export type ConnectionState =
  | { kind: 'connecting'; since: number }
  | { kind: 'connected'; since: number }
  | { kind: 'reconnecting'; since: number; reason?: string }
  | { kind: 'unauthorized'; since: number };

/** One `status.live` sample for the sparklines: bytes and percent of one core. */
export interface Sample {
  at: number;
  daemonRss: number;
  daemonCpu: number;
  kitsRss: number;
  kitsCpu: number;
}

/** The three editable lists of the Configuration screen, in display order. */
export const CONFIG_LISTS = [
  { key: 'frameAncestors', title: 'frame-ancestors (CSP)' },
  { key: 'postAllowHosts', title: 'post_allow hosts' },
  { key: 'wopiHosts', title: 'WOPI hosts' },
] as const;

/** The key of one editable list. */
export type ConfigListKey = (typeof CONFIG_LISTS)[number]['key'];

/** A call to the admin API the user asked for (tui/data.ts runs it). */
export type Operation =
  | { type: 'save'; id: string; name: string }
  | { type: 'close'; id: string; name: string }
  | { type: 'kill'; pid: number; name: string }
  | { type: 'rotate' }
  | { type: 'refreshUpdates' }
  | { type: 'editConfig'; key: ConfigListKey; value: string[] };

/** A question waiting for y/n; `yes` runs `operation`. */
export interface Confirm {
  prompt: string;
  operation: Operation;
}

/** A result or error shown inline on `screen`; `problems` are the server's reasons for a refused config edit. */
export interface Notice {
  screen: ScreenId;
  kind: 'busy' | 'ok' | 'error';
  text: string;
  problems?: string[];
}

/** The config entry being typed: a new one (`add`) or entry `index` (`edit`). */
export interface ConfigEditing {
  mode: 'add' | 'edit';
  index: number;
  value: string;
}

/** What the UI shows and where the user is. */
export interface UiState {
  screen: ScreenId;
  help: boolean;
  /** The selected document's id (the first one when undefined or gone). */
  docId?: string;
  configList: number;
  configIndex: number;
  editing?: ConfigEditing;
  confirm?: Confirm;
  notice?: Notice;
  logLevel: LogLevel;
  /** The seq of the last line shown when paused; undefined when following. */
  logsPausedAt?: number;
}

/** Everything the dashboard shows. */
export interface DashboardState {
  /** The admin API's address, shown in the header. */
  target: string;
  connection: ConnectionState;
  status?: ServerStatus;
  samples: Sample[];
  documents: DocumentInfo[];
  /** Edits the host does not have yet (admin API `documents.recovery`), shown under the documents. */
  recovery: RecoveryCopyInfo[];
  config?: EffectiveConfig;
  proofKey?: ProofKeyInfo;
  updates?: UpdateInfo;
  logs: LogLine[];
  /** Why a query failed (shown on its screen), by the name of its data. */
  errors: Partial<Record<'status' | 'documents' | 'recovery' | 'config' | 'proofKey' | 'updates' | 'logs', string>>;
  ui: UiState;
}

/** Most samples kept for the sparklines (a 2 s interval: 10 minutes). */
export const MAX_SAMPLES = 300;
/** Most log lines kept. */
export const MAX_LOG_LINES = 1000;

/** Everything that changes the state. */
export type Action =
  | { type: 'connection'; connection: ConnectionState }
  | { type: 'status'; status: ServerStatus }
  | { type: 'documents'; documents: DocumentInfo[] }
  | { type: 'documentEvent'; event: DocumentEvent }
  | { type: 'recovery'; copies: RecoveryCopyInfo[] }
  | { type: 'config'; config: EffectiveConfig }
  | { type: 'proofKey'; proofKey: ProofKeyInfo }
  | { type: 'updates'; updates: UpdateInfo }
  | { type: 'logs'; lines: LogLine[] }
  | { type: 'log'; line: LogLine }
  | { type: 'error'; what: keyof DashboardState['errors']; message: string | undefined }
  | { type: 'screen'; screen: ScreenId }
  | { type: 'nextScreen'; delta: 1 | -1 }
  | { type: 'help'; open: boolean }
  | { type: 'moveDoc'; delta: number }
  | { type: 'configList'; delta: 1 | -1 }
  | { type: 'configMove'; delta: number }
  | { type: 'editing'; editing: ConfigEditing | undefined }
  | { type: 'confirm'; confirm: Confirm | undefined }
  | { type: 'notice'; notice: Notice | undefined }
  | { type: 'logLevel'; delta: 1 | -1 }
  | { type: 'logsPause' };

/** The state before anything arrived. */
export function initialState(target: string, now = Date.now()): DashboardState {
  return {
    target,
    connection: { kind: 'connecting', since: now },
    samples: [],
    documents: [],
    recovery: [],
    logs: [],
    errors: {},
    ui: { screen: 'overview', help: false, configList: 0, configIndex: 0, logLevel: 'info' },
  };
}

/** The sample of one status: the daemon alone, and the kits summed. */
export function sampleOf(s: ServerStatus): Sample {
  return {
    at: s.startedAt + s.uptimeMs,
    daemonRss: s.daemon.rssBytes,
    daemonCpu: s.daemon.cpuPercent,
    kitsRss: s.kits.reduce((n, k) => n + k.rssBytes, 0),
    kitsCpu: s.kits.reduce((n, k) => n + k.cpuPercent, 0),
  };
}

/** The documents in display order (oldest opened first). */
export function sortedDocuments(docs: readonly DocumentInfo[]): DocumentInfo[] {
  return [...docs].sort((a, b) => a.openedAt - b.openedAt || a.id.localeCompare(b.id));
}

/** The selected document: the one with ui.docId, else the first. */
export function selectedDocument(state: DashboardState): DocumentInfo | undefined {
  const docs = sortedDocuments(state.documents);
  return docs.find((d) => d.id === state.ui.docId) ?? docs[0];
}

/** The entries of the config list the user is on. */
export function configEntries(state: DashboardState): string[] {
  const key = CONFIG_LISTS[state.ui.configList].key;
  return state.config?.editable[key] ?? [];
}

/** The log lines at or above the chosen level, up to the pause point. */
export function visibleLogs(state: DashboardState): LogLine[] {
  const min = LOG_LEVELS.indexOf(state.ui.logLevel);
  const until = state.ui.logsPausedAt ?? Infinity;
  return state.logs.filter((l) => LOG_LEVELS.indexOf(l.level) >= min && l.seq <= until);
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

function upsert(docs: DocumentInfo[], doc: DocumentInfo): DocumentInfo[] {
  const i = docs.findIndex((d) => d.id === doc.id);
  return i < 0 ? [...docs, doc] : docs.map((d, j) => (j === i ? doc : d));
}

function ui(state: DashboardState, patch: Partial<UiState>): DashboardState {
  return { ...state, ui: { ...state.ui, ...patch } };
}

/** The reducer: (state, action) -> the next state. */
export function reduce(state: DashboardState, action: Action): DashboardState {
  switch (action.type) {
    case 'connection':
      return { ...state, connection: action.connection };
    case 'status':
      return {
        ...state,
        status: action.status,
        samples: [...state.samples, sampleOf(action.status)].slice(-MAX_SAMPLES),
        errors: { ...state.errors, status: undefined },
      };
    case 'documents':
      return { ...state, documents: action.documents, errors: { ...state.errors, documents: undefined } };
    case 'documentEvent': {
      const e = action.event;
      const documents = e.type === 'closed' ? state.documents.filter((d) => d.id !== e.id) : upsert(state.documents, e.document);
      return { ...state, documents };
    }
    case 'recovery':
      return { ...state, recovery: action.copies, errors: { ...state.errors, recovery: undefined } };
    case 'config':
      return { ...state, config: action.config, errors: { ...state.errors, config: undefined } };
    case 'proofKey':
      return { ...state, proofKey: action.proofKey, errors: { ...state.errors, proofKey: undefined } };
    case 'updates':
      return { ...state, updates: action.updates, errors: { ...state.errors, updates: undefined } };
    case 'logs': {
      // A fresh `logs.recent` after a reconnect: keep what is newer than the last line we had (seq restarts at a daemon restart).
      return { ...state, logs: action.lines.slice(-MAX_LOG_LINES), errors: { ...state.errors, logs: undefined } };
    }
    case 'log': {
      const last = state.logs[state.logs.length - 1];
      if (last && action.line.seq === last.seq && action.line.time === last.time) return state;
      return { ...state, logs: [...state.logs, action.line].slice(-MAX_LOG_LINES) };
    }
    case 'error':
      return { ...state, errors: { ...state.errors, [action.what]: action.message } };
    case 'screen':
      return ui(state, { screen: action.screen, help: false });
    case 'nextScreen': {
      const i = SCREENS.findIndex((s) => s.id === state.ui.screen);
      return ui(state, { screen: SCREENS[(i + action.delta + SCREENS.length) % SCREENS.length].id, help: false });
    }
    case 'help':
      return ui(state, { help: action.open });
    case 'moveDoc': {
      const docs = sortedDocuments(state.documents);
      if (docs.length === 0) return state;
      const at = Math.max(
        0,
        docs.findIndex((d) => d.id === state.ui.docId),
      );
      return ui(state, { docId: docs[clamp(at + action.delta, 0, docs.length - 1)].id });
    }
    case 'configList':
      return ui(state, { configList: (state.ui.configList + action.delta + CONFIG_LISTS.length) % CONFIG_LISTS.length, configIndex: 0 });
    case 'configMove': {
      const n = configEntries(state).length;
      return ui(state, { configIndex: clamp(state.ui.configIndex + action.delta, 0, Math.max(0, n - 1)) });
    }
    case 'editing':
      return ui(state, { editing: action.editing });
    case 'confirm':
      return ui(state, { confirm: action.confirm });
    case 'notice':
      return ui(state, { notice: action.notice });
    case 'logLevel': {
      const i = clamp(LOG_LEVELS.indexOf(state.ui.logLevel) + action.delta, 0, LOG_LEVELS.length - 1);
      return ui(state, { logLevel: LOG_LEVELS[i] });
    }
    case 'logsPause':
      return ui(state, { logsPausedAt: state.ui.logsPausedAt === undefined ? (state.logs[state.logs.length - 1]?.seq ?? 0) : undefined });
  }
}
