/**
 * The dashboard's frame: header and tabs, the current screen, the key legend at the bottom. It reads the state
 * and actions from their contexts, the size from the terminal (re-rendered on resize), and turns key presses into
 * actions through tui/keys.ts. Screens are pure: props in, frame out.
 */
import { Box, useInput } from 'ink';
import { Header } from './components/header.tsx';
import { Help } from './components/help.tsx';
import { Legend, legendHeight } from './components/legend.tsx';
import { useTerminalSize } from './components/use-terminal-size.ts';
import { editedList, handleKey, screenKeys } from './keys.ts';
import { ConfigScreen } from './screens/config.tsx';
import { DocumentsScreen } from './screens/documents.tsx';
import { LogsScreen } from './screens/logs.tsx';
import { OverviewScreen } from './screens/overview.tsx';
import { ProofKeyScreen } from './screens/proof-key.tsx';
import { UpdatesScreen } from './screens/updates.tsx';
import { useDashboardActions, useDashboardState } from './state/contexts.tsx';
import { CONFIG_LISTS, configEntries, selectedDocument, sortedDocuments, visibleLogs, type DashboardState } from './state/store.ts';
import type { DashboardActions } from './state/contexts.tsx';

/** The body of the current screen. */
function Screen({ state, actions, width, height }: { state: DashboardState; actions: DashboardActions; width: number; height: number }) {
  const { ui } = state;
  if (ui.help) return <Help width={width} />;
  const notice = ui.notice?.screen === ui.screen ? ui.notice : undefined;
  switch (ui.screen) {
    case 'overview':
      return (
        <OverviewScreen status={state.status} samples={state.samples} connection={state.connection} error={state.errors.status} width={width} height={height} />
      );
    case 'documents':
      return (
        <DocumentsScreen
          documents={sortedDocuments(state.documents)}
          selected={selectedDocument(state)}
          confirm={ui.confirm}
          notice={notice}
          error={state.errors.documents}
          width={width}
          height={height}
          recovery={state.recovery}
        />
      );
    case 'config':
      return (
        <ConfigScreen
          config={state.config}
          list={ui.configList}
          index={ui.configIndex}
          editing={ui.editing}
          confirm={ui.confirm}
          notice={notice}
          error={state.errors.config}
          width={width}
          height={height}
          onEditChange={(value) => ui.editing && actions.dispatch({ type: 'editing', editing: { ...ui.editing, value } })}
          onEditSubmit={(value) => {
            if (!ui.editing) return;
            const v = value.trim();
            if (!v)
              return actions.dispatch({ type: 'notice', notice: { screen: 'config', kind: 'error', text: 'an empty entry is not allowed (Esc cancels)' } });
            actions.run({ type: 'editConfig', key: CONFIG_LISTS[ui.configList].key, value: editedList(configEntries(state), ui.editing, v) });
          }}
        />
      );
    case 'proofKey':
      return <ProofKeyScreen proofKey={state.proofKey} confirm={ui.confirm} notice={notice} error={state.errors.proofKey} width={width} />;
    case 'updates':
      return <UpdatesScreen updates={state.updates} notice={notice} error={state.errors.updates} width={width} />;
    case 'logs': {
      const lines = visibleLogs(state);
      const paused = ui.logsPausedAt !== undefined;
      const newer = paused ? state.logs.filter((l) => l.seq > (ui.logsPausedAt ?? 0)).length : 0;
      return <LogsScreen lines={lines} level={ui.logLevel} paused={paused} newer={newer} error={state.errors.logs} width={width} height={height} />;
    }
  }
}

/** The whole dashboard: fills the terminal but one row (so Ink redraws in place instead of clearing the screen). */
export function App() {
  const state = useDashboardState();
  const actions = useDashboardActions();
  const { columns, rows } = useTerminalSize();
  useInput((input, key) => {
    const r = handleKey(state, input, key);
    for (const a of r.actions) actions.dispatch(a);
    if (r.run) actions.run(r.run);
    if (r.quit) actions.quit();
  });
  const keys = screenKeys(state);
  const height = Math.max(8, rows - 1);
  const legend = legendHeight(keys, columns);
  const body = Math.max(3, height - 2 - legend - 1);
  return (
    <Box flexDirection="column" width={columns} height={height}>
      <Header target={state.target} connection={state.connection} screen={state.ui.screen} width={columns} />
      <Box flexDirection="column" marginTop={1} height={body} overflow="hidden">
        <Screen state={state} actions={actions} width={columns} height={body} />
      </Box>
      <Legend keys={keys} width={columns} />
    </Box>
  );
}
