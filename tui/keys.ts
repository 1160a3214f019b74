/**
 * The keyboard: a pure function from (state, key) to what to do — UI actions to dispatch, an admin API call to
 * run, or quit. The App feeds it Ink's useInput events; tests can call it directly.
 */
import type { Key } from 'ink';
import { CONFIG_LISTS, SCREENS, configEntries, selectedDocument, type Action, type DashboardState, type Operation } from './state/store.ts';

/** What one key press does. */
export interface KeyResult {
  actions: Action[];
  run?: Operation;
  quit?: boolean;
}

const none: KeyResult = { actions: [] };
const act = (...actions: Action[]): KeyResult => ({ actions });

/** The keys of the screen the user is on, for the legend (global keys are added by the legend itself). */
export function screenKeys(state: DashboardState): string[] {
  const { ui } = state;
  if (ui.confirm) return ['y confirm', 'n/Esc cancel'];
  if (ui.editing) return ['Enter save', 'Esc cancel'];
  switch (ui.screen) {
    case 'overview':
      return [];
    case 'documents':
      return ['↑↓ select', 's save', 'c close', 'k kill kit'];
    case 'config':
      return ['←→ list', '↑↓/jk entry', 'a add', 'e/Enter edit', 'd remove'];
    case 'proofKey':
      return ['r rotate'];
    case 'updates':
      return ['r refresh'];
    case 'logs':
      return ['←→/-+ level', 'p/Space pause'];
  }
}

/** Maps one key press to its effect on `state`. */
export function handleKey(state: DashboardState, input: string, key: Key): KeyResult {
  const { ui } = state;
  if (key.ctrl && input === 'c') return { actions: [], quit: true };

  // A question waiting for y/n takes every key.
  if (ui.confirm) {
    if (input === 'y' || input === 'Y') return { actions: [{ type: 'confirm', confirm: undefined }], run: ui.confirm.operation };
    if (input === 'n' || input === 'N' || key.escape)
      return act({ type: 'confirm', confirm: undefined }, { type: 'notice', notice: { screen: ui.screen, kind: 'ok', text: 'cancelled' } });
    return none;
  }
  // While typing a config entry, the text input has the keys; Enter is its onSubmit (see ConfigScreen).
  if (ui.editing) return key.escape ? act({ type: 'editing', editing: undefined }, { type: 'notice', notice: undefined }) : none;

  if (ui.help) return input === 'q' ? { actions: [], quit: true } : act({ type: 'help', open: false });
  if (input === 'q') return { actions: [], quit: true };
  if (input === '?') return act({ type: 'help', open: true });
  if (key.tab) return act({ type: 'nextScreen', delta: key.shift ? -1 : 1 });
  const n = Number(input);
  if (input.length === 1 && n >= 1 && n <= SCREENS.length) return act({ type: 'screen', screen: SCREENS[n - 1].id }, { type: 'notice', notice: undefined });

  const up = key.upArrow || input === 'k';
  const down = key.downArrow || input === 'j';
  switch (ui.screen) {
    case 'documents': {
      // `k` is "kill kit" here (htop's key, and it asks first), so the arrows select; j still moves down.
      if (key.upArrow) return act({ type: 'moveDoc', delta: -1 });
      if (key.downArrow || input === 'j') return act({ type: 'moveDoc', delta: 1 });
      const doc = selectedDocument(state);
      if (!doc)
        return input === 's' || input === 'c' || input === 'k'
          ? act({ type: 'notice', notice: { screen: 'documents', kind: 'error', text: 'no document is open' } })
          : none;
      if (input === 's') return { actions: [], run: { type: 'save', id: doc.id, name: doc.fileName } };
      if (input === 'c')
        return act({
          type: 'confirm',
          confirm: { prompt: `Close ${doc.fileName} (saved first when modified)?`, operation: { type: 'close', id: doc.id, name: doc.fileName } },
        });
      if (input === 'k') {
        if (doc.kitPid === undefined)
          return act({ type: 'notice', notice: { screen: 'documents', kind: 'error', text: `${doc.fileName} has no kit process` } });
        return act({
          type: 'confirm',
          confirm: {
            prompt: `Kill kit ${doc.kitPid} of ${doc.fileName}? Unsaved changes are lost.`,
            operation: { type: 'kill', pid: doc.kitPid, name: doc.fileName },
          },
        });
      }
      return none;
    }
    case 'config': {
      if (!state.config) return none;
      const list = CONFIG_LISTS[ui.configList];
      const entries = configEntries(state);
      if (key.leftArrow) return act({ type: 'configList', delta: -1 }, { type: 'notice', notice: undefined });
      if (key.rightArrow) return act({ type: 'configList', delta: 1 }, { type: 'notice', notice: undefined });
      if (up) return act({ type: 'configMove', delta: -1 });
      if (down) return act({ type: 'configMove', delta: 1 });
      if (input === 'a') return act({ type: 'editing', editing: { mode: 'add', index: entries.length, value: '' } }, { type: 'notice', notice: undefined });
      if (entries.length === 0) return none;
      const i = Math.min(ui.configIndex, entries.length - 1);
      if (input === 'e' || key.return)
        return act({ type: 'editing', editing: { mode: 'edit', index: i, value: entries[i] } }, { type: 'notice', notice: undefined });
      if (input === 'd')
        return act({
          type: 'confirm',
          confirm: {
            prompt: `Remove ${entries[i]} from ${list.title}?`,
            operation: { type: 'editConfig', key: list.key, value: entries.filter((_, j) => j !== i) },
          },
        });
      return none;
    }
    case 'proofKey':
      return input === 'r'
        ? act({ type: 'confirm', confirm: { prompt: 'Rotate the proof key? The current key becomes the old one.', operation: { type: 'rotate' } } })
        : none;
    case 'updates':
      return input === 'r' ? { actions: [], run: { type: 'refreshUpdates' } } : none;
    case 'logs':
      if (key.leftArrow || input === '-') return act({ type: 'logLevel', delta: -1 });
      if (key.rightArrow || input === '+' || input === '=') return act({ type: 'logLevel', delta: 1 });
      if (input === 'p' || input === ' ') return act({ type: 'logsPause' });
      return none;
    default:
      return none;
  }
}

/** The new list after typing `value` in `editing` (add appends, edit replaces). */
export function editedList(entries: readonly string[], editing: { mode: 'add' | 'edit'; index: number }, value: string): string[] {
  return editing.mode === 'add' ? [...entries, value] : entries.map((e, i) => (i === editing.index ? value : e));
}
