import { initialState, reduce, type Action, type DashboardState } from './store.ts';

/** The dashboard's state held outside React (the data flow dispatches into it; Root reads it with useSyncExternalStore). */
export interface DashboardStore {
  getState(): DashboardState;
  dispatch(action: Action): void;
  /** Calls `fn` after every change; returns the unsubscribe. */
  subscribe(fn: () => void): () => void;
}

/** A store starting at `initial` (default: nothing received yet, for `target`). */
export function createDashboardStore(target: string, initial: DashboardState = initialState(target)): DashboardStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = reduce(state, action);
      if (next === state) return;
      state = next;
      for (const fn of listeners) fn();
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
