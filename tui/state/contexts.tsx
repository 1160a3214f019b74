/**
 * The two contexts of the dashboard (Ink habit: state and actions apart, so a component that only acts does not
 * re-render on every sample): DashboardState, and the actions that change it or call the admin API.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { Action, DashboardState, Operation } from './store.ts';

/** What components may do: change the UI state, run an admin API call (its result lands in the state as a notice), quit. */
export interface DashboardActions {
  dispatch(action: Action): void;
  run(operation: Operation): void;
  quit(): void;
}

const StateContext = createContext<DashboardState | null>(null);
const ActionsContext = createContext<DashboardActions | null>(null);

/** Provides `state` and `actions` to the tree below. */
export function DashboardProvider({ state, actions, children }: { state: DashboardState; actions: DashboardActions; children: ReactNode }) {
  return (
    <ActionsContext.Provider value={actions}>
      <StateContext.Provider value={state}>{children}</StateContext.Provider>
    </ActionsContext.Provider>
  );
}

/** The current DashboardState. @throws Error outside a DashboardProvider */
export function useDashboardState(): DashboardState {
  const s = useContext(StateContext);
  if (!s) throw new Error('useDashboardState outside DashboardProvider');
  return s;
}

/** The DashboardActions. @throws Error outside a DashboardProvider */
export function useDashboardActions(): DashboardActions {
  const a = useContext(ActionsContext);
  if (!a) throw new Error('useDashboardActions outside DashboardProvider');
  return a;
}
