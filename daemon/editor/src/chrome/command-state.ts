import type { App } from '../core/app.ts';
import { stateText } from './dom.ts';

/**
 * Whether command `id` is on: its own `checked()`, else its UNO `state` being "true" (`.uno:Bold=true`);
 * `undefined` for a command that is not a toggle.
 */
export function commandChecked(app: App, id: string): boolean | undefined {
  const c = app.commands.get(id);
  if (!c) return undefined;
  if (c.checked) return c.checked();
  if (c.state) return stateText(app.session.state.states.get(c.state)) === 'true';
  return undefined;
}

/** Calls `fn` at most once per animation frame after any command or UNO state change. */
export function onCommandsChanged(app: App, fn: () => void): void {
  let queued = false;
  const schedule = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fn();
    });
  };
  app.commands.on('changed', schedule);
  app.session.on('stateChanged', schedule);
  app.session.on('status', schedule);
  app.session.on('closed', schedule);
}
