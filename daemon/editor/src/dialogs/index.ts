import type { App } from '../core/app.ts';

/** Placeholder: mounted by main.ts; built in issue 5. */
export function mountDialogs(app: App): void {
  void app;
}
