import { DEFAULT_UI_ACTIONS } from '../../../protocol/postmessage.ts';
import type { App } from '../core/app.ts';
import type { UiCommand } from '../core/commands.ts';
import type { HostBridge } from './bridge.ts';

type DefaultAction = (typeof DEFAULT_UI_ACTIONS)[number];

/** Which of Collabora's UI actions still run their default (Disable_Default_UIAction turns one off). */
export interface DefaultActions {
  /** True unless the host disabled `action` (and did not enable it again). */
  enabled(action: DefaultAction): boolean;
}

/**
 * Disable_Default_UIAction {action, disable} (daemon/protocol/postmessage.md), as Collabora Online's Map.WOPI.js
 * `_disableDefaultAction`: the editor always posts the UI action to the host, and runs its own default only while the
 * host has not disabled it. UI_Save: File > Save, the Save button and Ctrl+S (the `file.save` command, whoever
 * registers it) post UI_Save, then save unless disabled (the host saves with Action_Save). UI_Close: host/index.ts's
 * `file.close` asks `enabled('UI_Close')` before closing the view. Other actions are logged and ignored.
 */
export function installDefaultActions(app: App, bridge: HostBridge): DefaultActions {
  const disabled = new Set<string>();
  bridge.on('Disable_Default_UIAction', (v) => {
    const action = typeof v.action === 'string' ? v.action : '';
    if (!(DEFAULT_UI_ACTIONS as readonly string[]).includes(action) || v.disable === undefined) {
      console.info(`[ode] Disable_Default_UIAction for ${JSON.stringify(v.action)} is not handled (Ode knows ${DEFAULT_UI_ACTIONS.join(', ')})`);
      return;
    }
    if (v.disable === true || v.disable === 'true') disabled.add(action);
    else disabled.delete(action);
  });

  // file.save is the chrome's (chrome/commands.ts, registered on the first status): wrapped each time it is
  // registered, so every way to save (menu, toolbar, Ctrl+S, the formula bar's Enter) tells the host first.
  const wrappers = new WeakSet<UiCommand>();
  const wrapSave = () => {
    const own = app.commands.get('file.save');
    if (!own || wrappers.has(own)) return;
    const wrapper: UiCommand = {
      ...own,
      run: (arg?: string) => {
        bridge.send('UI_Save', {});
        if (!disabled.has('UI_Save')) own.run(arg);
      },
    };
    wrappers.add(wrapper);
    app.commands.register(wrapper);
  };
  app.commands.on('changed', (id) => id === undefined && wrapSave());
  wrapSave();
  return { enabled: (action) => !disabled.has(action) };
}
