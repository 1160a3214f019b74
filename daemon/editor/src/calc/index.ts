import type { App } from '../core/app.ts';

/** Placeholder: mounted by main.ts; built in issue 5. */
export function mountCalc(app: App): void {
  void app;
}
