/** Dashboard states for the component tests: what a daemon with two open documents and three kits reports. */
import { initialState, reduce, type Action, type DashboardState } from '../state/store.ts';
import type { DocumentInfo, LogLine, ServerStatus } from '../types.ts';

export const T0 = new Date(2025, 4, 6, 10, 0, 0).getTime();
const MiB = 1024 * 1024;

export const LONG_NAME = 'Quarterly report of the regional office with a very long file name indeed, version 12 final.docx';

export function status(i = 0): ServerStatus {
  return {
    version: '0.1.0',
    versionHash: 'abcdef0123456789',
    runtime: 'compiled',
    serverId: 'srv1',
    node: 'serving',
    startedAt: T0,
    uptimeMs: 3_725_000 + i * 2000,
    daemon: { pid: 100, rssBytes: (120 + i * 10) * MiB, cpuPercent: 2 + i },
    kits: [
      { pid: 201, state: 'editing', startedAt: T0 + 1000, jobs: 3, documentId: 'doc-a', rssBytes: (300 + i * 20) * MiB, cpuPercent: 10 + i },
      { pid: 202, state: 'editing', startedAt: T0 + 2000, jobs: 1, documentId: 'doc-b', rssBytes: 250 * MiB, cpuPercent: 1 },
      { pid: 203, state: 'ready', startedAt: T0 + 3000, jobs: 0, rssBytes: 90 * MiB, cpuPercent: 0 },
    ],
    maxKits: 16,
    queue: { length: 2, max: 100 },
    documents: 2,
    views: 3,
    failures: { saves: 0, uploads: 1, conversions: 0, lastUpload: { at: T0 + 60_000, documentId: 'doc-b', message: 'PutFile: 500 from host' } },
    conversions: { ok: 41, failed: 1 },
  };
}

export const DOC_A: DocumentInfo = {
  id: 'doc-a',
  fileName: 'letter.docx',
  host: 'https://cloud.example.org',
  state: 'live',
  modified: true,
  views: [
    { viewId: 1, userId: 'u-ada', userName: 'Ada Lovelace', readOnly: false, joinedAt: T0 + 5000 },
    { viewId: 2, userId: 'u-grace', userName: 'Grace Hopper', readOnly: true, joinedAt: T0 + 6000 },
  ],
  openedAt: T0 + 5000,
  lastSaveAt: T0 + 70_000,
  kitPid: 201,
  kitRssBytes: 300 * MiB,
};

export const DOC_B: DocumentInfo = {
  id: 'doc-b',
  fileName: LONG_NAME,
  host: 'https://files.example.com',
  state: 'live',
  modified: false,
  views: [{ viewId: 7, userId: 'u-linus', userName: 'Linus Pauling', readOnly: false, joinedAt: T0 + 9000 }],
  openedAt: T0 + 9000,
  lastUploadError: 'PutFile: 500 from host',
  kitPid: 202,
  kitRssBytes: 250 * MiB,
};

export const FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).padStart(2, '0').slice(-2).toUpperCase()).join(':');
export const OLD_FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i * 5 + 1).toString(16).padStart(2, '0').slice(-2).toUpperCase()).join(':');

export function logs(): LogLine[] {
  return [
    { seq: 1, time: T0 + 1000, level: 'info', msg: 'Ode is running', fields: { port: 9980 } },
    { seq: 2, time: T0 + 2000, level: 'debug', msg: 'kit spawned', fields: { kit: 203 } },
    { seq: 3, time: T0 + 3000, level: 'warn', msg: 'upload failed', fields: { doc: 'doc-b', err: 'PutFile: 500' } },
  ];
}

/** A connected dashboard that received five status samples, two documents, the config, proof key, updates and logs. */
export function fullState(): DashboardState {
  const actions: Action[] = [
    { type: 'connection', connection: { kind: 'connected', since: T0 } },
    ...[0, 1, 2, 3, 4].map((i): Action => ({ type: 'status', status: status(i) })),
    { type: 'documents', documents: [DOC_B, DOC_A] },
    {
      type: 'config',
      config: {
        file: '/etc/ode/ode.yaml',
        values: {},
        editable: {
          contentSecurityPolicy: "frame-ancestors 'self' https://cloud.example.org; img-src 'self' data:",
          frameAncestors: ["'self'", 'https://cloud.example.org'],
          postAllowHosts: ['192\\.168\\.[0-9]+\\.[0-9]+', '127\\.0\\.0\\.1'],
          wopiHosts: ['cloud\\.example\\.org'],
        },
      },
    },
    { type: 'proofKey', proofKey: { fingerprint: FINGERPRINT, created: T0, oldFingerprint: OLD_FINGERPRINT, oldCreated: T0 - 86_400_000 } },
    {
      type: 'updates',
      updates: {
        configured: true,
        url: 'https://updates.example.org',
        product: 'Ode',
        current: '0.1.0',
        available: '0.2.0',
        newer: true,
        checkedAt: T0 + 1000,
      },
    },
    { type: 'logs', lines: logs() },
  ];
  return actions.reduce(reduce, initialState('127.0.0.1:9981', T0));
}
