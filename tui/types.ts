/**
 * The admin API's data types as the dashboard sees them: type-only imports from admin-api (STYLE.md: tui/
 * imports only types from admin-api, never daemon/ or certs/). Times are ms since the epoch, sizes bytes.
 */
export type {
  DocumentEvent,
  DocumentInfo,
  EditableConfig,
  EffectiveConfig,
  KitStatus,
  LogLevel,
  LogLine,
  ProofKeyInfo,
  RecoveryCopyInfo,
  ServerStatus,
  UpdateInfo,
} from '../admin-api/backend.ts';
export type { AppRouter } from '../admin-api/router.ts';

import type { LogLevel } from '../admin-api/backend.ts';

/** pino's levels, lowest first (the order `logs.follow` filters by). */
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
