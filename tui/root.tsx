import { useMemo, useSyncExternalStore } from 'react';
import { useApp } from 'ink';
import { App } from './app.tsx';
import { DashboardProvider, type DashboardActions } from './state/contexts.tsx';
import type { DashboardStore } from './state/external-store.ts';
import type { Operation } from './state/store.ts';

/**
 * Binds a DashboardStore and an operation runner to the App: the state context follows the store, the actions
 * context dispatches into it, runs operations, and quits by unmounting Ink (which restores the terminal).
 */
export function Root({ store, run, onQuit }: { store: DashboardStore; run(op: Operation): void; onQuit?(): void }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { exit } = useApp();
  const actions = useMemo<DashboardActions>(
    () => ({
      dispatch: store.dispatch,
      run,
      quit: () => {
        onQuit?.();
        exit();
      },
    }),
    [store, run, exit, onQuit],
  );
  return (
    <DashboardProvider state={state} actions={actions}>
      <App />
    </DashboardProvider>
  );
}
