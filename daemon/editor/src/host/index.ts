import { CLOSE, type ViewInfo } from '../../../protocol/editor.ts';
import { commandIdOfButton, type EditorToHostId, type HostViewInfo, type InsertButtonValues } from '../../../protocol/postmessage.ts';
import { DOWNLOAD_FORMATS } from '../chrome/commands.ts';
import type { App } from '../core/app.ts';
import { setLanguage, t, UI_LANGUAGES } from '../core/i18n.ts';
import { HostBridge } from './bridge.ts';
import './catalogue.ts';
import { createDebug } from './debug.ts';
import { installDefaultActions } from './default-actions.ts';
import { installExport } from './export.ts';
import { installFollow } from './follow.ts';
import { installMove } from './move.ts';
import { installRecoveryBanner } from './recovery-banner.ts';
import { installReconnect } from './reconnect.ts';
import { HostBar } from './host-bar.ts';
import { createOverlays } from './overlays.ts';
import { computePolicy, expand } from './policy.ts';
import { insertGraphic } from './remote-image.ts';
import { installUnlock } from './restrictions.ts';
import { mountTheming } from './theming.ts';
import { installUpdateNotice } from './update-notice.ts';

const yes = (v: unknown) => v === true || v === 'true';
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The host's id for a view (Views_List, View_Added). */
const hostView = (v: ViewInfo, current?: number): HostViewInfo => ({
  ViewId: v.viewId,
  UserId: v.userId,
  UserName: v.userName,
  Color: v.color,
  ReadOnly: v.readonly,
  ...(current !== undefined ? { IsCurrentView: v.viewId === current } : {}),
  UserExtraInfo: v.extraInfo ?? {},
});

/**
 * Host integration (issue 5 "Host integration, exactly as the spec says"; daemon/protocol/postmessage.md): the
 * PostMessage API (sent only to PostMessageOrigin, taken only from it and from window.parent), the CheckFileInfo UI
 * properties and iframe parameters as hidden/disabled commands (policy.ts), the host's commands (file.close,
 * file.versions, insert.remote*, insert.aiContent, file.closeForEveryone, help.debug), exports (`app.exportDocument`,
 * Download_As), the idle/closed/conflict overlays and the token banner, and the debug overlay. Sets
 * `app.postToHost` and `app.exportDocument`. Mounted first: randomUser picks the UI language before the others mount.
 */
export function mountHost(app: App): void {
  const { session, commands, config } = app;
  const settings = config.settings;
  if (yes(settings.randomUser)) {
    // Debug mode and a random UI language (the `load` message, sent when the socket opens, takes it too).
    settings.lang = UI_LANGUAGES[Math.floor(Math.random() * UI_LANGUAGES.length)];
    settings.debug = 'true';
    setLanguage(settings.lang);
  }

  mountTheming(app);
  const bridge = new HostBridge();
  const debug = createDebug(app);
  bridge.onTraffic = (dir, id, values) =>
    debug.trace(`${dir === 'in' ? '◀ host' : dir === 'out' ? '▶ host' : '✕ dropped'} ${id} ${JSON.stringify(values) ?? ''}`.slice(0, 200));
  app.postToHost = (id, values = {}) => bridge.send(id as EditorToHostId, values as never);
  installExport(app, bridge);
  installMove(app);
  const defaults = installDefaultActions(app, bridge);
  /** This view is leaving on purpose (Action_Close, Close): no overlay when the socket closes. */
  let expectedClose = false;
  installFollow(app, bridge);
  const fileInfo = () => session.state.status?.fileInfo ?? {};
  const overlays = createOverlays(app, () => !yes(fileInfo().DisableInactiveMessages));
  const bar = new HostBar(app);
  installUpdateNotice(app);
  installRecoveryBanner(app);

  // --- Commands of the host (shown or hidden by policy.ts) ---
  commands.register(
    {
      id: 'file.close',
      label: 'file.close',
      run: () => {
        bridge.send('UI_Close', { EverModified: session.state.everModified });
        // As Collabora (onClose: map.remove()): the view leaves unless the host took Close over (Disable_Default_UIAction).
        if (!defaults.enabled('UI_Close')) return;
        expectedClose = true;
        session.send({ type: 'close' });
      },
    },
    { id: 'file.versions', label: 'file.versions', run: () => bridge.send('UI_FileVersions', {}) },
    { id: 'insert.remoteImage', label: 'insert.remoteImage', run: () => bridge.send('UI_InsertGraphic', {}) },
    { id: 'insert.remoteLink', label: 'insert.remoteLink', run: () => bridge.send('UI_PickLink', {}) },
    { id: 'insert.remoteFile', label: 'insert.remoteFile', run: () => bridge.send('UI_InsertFile', {}) },
    { id: 'insert.aiContent', label: 'insert.aiContent', run: () => bridge.send('UI_InsertAIContent', {}) },
    { id: 'file.closeForEveryone', label: 'file.closeForEveryone', enabled: () => session.live, run: () => session.send({ type: 'closeDocument' }) },
    { id: 'help.debug', label: 'help.debug', shortcut: 'Ctrl+Shift+Alt+D', run: () => debug.toggle() },
  );

  // --- Policy: CheckFileInfo properties, iframe parameters, Hide_Button ---
  const hostHidden = new Set<string>();
  let managed = new Set<string>();
  let locked = new Map<string, string>();
  installUnlock(
    app,
    (v) => bridge.send('UI_Unlock', v),
    (id) => locked.get(id),
  );
  let applying = false;
  let lastIds = '';
  const applyPolicy = (force = false) => {
    const ids = commands.all().map((c) => c.id);
    const key = ids.join('\n');
    if (!force && key === lastIds) return;
    lastIds = key;
    const st = session.state.status;
    const me = st ? session.state.views.find((v) => v.viewId === st.viewId)?.userId : undefined;
    const p = computePolicy({
      fileInfo: st?.fileInfo ?? {},
      settings,
      readonly: st?.readonly ?? settings.permission === 'readonly',
      commentsOnly: st?.commentsOnly ?? false,
      ids,
      userId: me,
      features: st?.features,
    });
    const byHost = new Set([...hostHidden].flatMap((pattern) => expand(pattern, ids)));
    const now = new Set([...p.hidden, ...p.disabled, ...byHost]);
    applying = true;
    try {
      for (const id of new Set([...managed, ...now])) {
        commands.setHidden(id, p.hidden.has(id) || byHost.has(id));
        commands.setDisabled(id, p.disabled.has(id));
      }
      for (const id of new Set([...locked.keys(), ...p.locked.keys()])) commands.setLocked(id, p.locked.has(id));
    } finally {
      applying = false;
    }
    managed = now;
    locked = p.locked;
  };
  commands.on('changed', (id) => {
    if (id === undefined && !applying) applyPolicy();
  });
  applyPolicy(true);

  // --- Loading status ---
  // Whom to talk to is decided once CheckFileInfo is answered (the `loading` message after it, or `status`):
  // PostMessageOrigin, else the parent frame (Collabora's behaviour) unless net.post_message_origin_required.
  const frameReady = () => {
    debug.mark('origin');
    bridge.send('App_LoadingStatus', { Status: 'Frame_Ready' });
  };
  const originKnown = (origin: unknown) => {
    if (bridge.setOrigin(origin)) frameReady();
    else if (!(typeof origin === 'string' && origin) && !config.requirePostMessageOrigin && bridge.useParent()) frameReady();
  };
  session.on('loading', (m) => m.stage !== 'checkfileinfo' && originKnown(m.postMessageOrigin));
  session.on('status', (m) => {
    originKnown(m.fileInfo.PostMessageOrigin);
    debug.mark('status');
    bar.attach();
    bar.setGuest(yes(m.fileInfo.IsAnonymousUser));
    if (yes(m.fileInfo.SaveAsPostmessage)) saveAsThroughHost(m.fileInfo.BaseFileName);
    applyPolicy(true);
  });
  // Document_Loaded goes once per document load, as in Collabora (Map.WOPI.js `_appLoaded`).
  let loadedSent = false;
  app.events.on('documentLoaded', () => {
    debug.mark('loaded');
    if (loadedSent) return;
    loadedSent = true;
    bridge.send('App_LoadingStatus', { Status: 'Document_Loaded', DocumentLoadedTime: Date.now() });
    const target = str(settings.target);
    // Best effort: LibreOffice's jump-to-mark takes `<name>|graphic|table|region|outlinetext|frame`.
    if (target) session.uno('.uno:JumpToMark', { Bookmark: { type: 'string', value: target } });
  });
  app.events.on('loadFailed', (reason) => {
    // CheckFileInfo may have failed: no PostMessageOrigin ever came. Collabora still tells the parent ('*').
    if (!config.requirePostMessageOrigin) bridge.useParent();
    bridge.send('App_LoadingStatus', { Status: 'Failed', Reason: reason });
  });
  if (yes(settings.debug)) debug.toggle(true);

  // --- Document state to the host ---
  session.on('modified', (m) => bridge.send('Doc_ModifiedStatus', { Modified: m.modified }));
  // Action_Save_Resp only answers an Action_Save (or Action_SaveAs) that asked with Notify, as Collabora does: hosts
  // written for it read one after every save as a Save As (richdocuments compares fileName with its own path).
  let notifySave = false;
  session.on('saved', (m) => {
    if (m.autosave || m.exitSave || !notifySave) return;
    notifySave = false;
    bridge.send(
      'Action_Save_Resp',
      m.ok ? { success: true, fileName: str(fileInfo().BaseFileName) } : { success: false, result: m.error?.code ?? 'failed', errorMsg: m.error?.message },
    );
  });
  // Collabora tells the host the new name after a rename (richdocuments renames the file in its list).
  session.on('renamed', (m) => m.ok && m.name && bridge.send('File_Rename', { NewName: encodeURIComponent(m.name) }));
  session.on('savedAs', (m) => app.notify(m.ok ? (m.name ?? '') : (m.error?.message ?? 'Save As failed'), m.ok ? 'info' : 'error'));
  let known = new Map<number, ViewInfo>();
  session.on('views', (m) => {
    const next = new Map(m.views.map((v) => [v.viewId, v]));
    for (const [id, v] of next) if (!known.has(id)) bridge.send('View_Added', hostView(v));
    for (const id of known.keys()) if (!next.has(id)) bridge.send('View_Removed', { ViewId: id });
    known = next;
    applyPolicy(true);
  });

  // --- Closing, idle, conflicts, token ---
  let idleShown = false;
  let kitMessage: string | undefined;
  session.on('idle', (m) => {
    bridge.send('User_Idle', { Message: m.message });
    idleShown = true;
    overlays.idle();
  });
  session.on('kitDied', (m) => (kitMessage = m.message));
  const reconnects = installReconnect(
    app,
    (code) => overlays.closed(code, kitMessage),
    (text) => overlays.banner(text),
  );
  session.on('closed', (code, reason) => {
    bridge.send('Session_Closed', { Code: code, Reason: reason });
    // 4503: the node drains; move.ts reopens the document through the load balancer. A dropped connection or a
    // restarting daemon: reconnect.ts reopens the document by itself.
    if (expectedClose || code === CLOSE.normal || code === CLOSE.draining || reconnects(code)) return;
    if (code === CLOSE.idle) return idleShown ? undefined : overlays.idle();
    overlays.closed(code, kitMessage);
  });
  session.on('conflict', (m) => m.unsavedChanges && overlays.conflict());
  session.on('tokenExpiring', (m) => overlays.tokenExpiring(m.expiresAt));

  // --- Messages from the host ---
  // Host_PostmessageReady only says the host listens (Collabora sets WOPIPostmessageReady and answers nothing):
  // answering it would ping-pong with hosts that send it on every Document_Loaded (richdocuments).
  bridge.on('Host_PostmessageReady', () => undefined);
  bridge.on('Action_Save', (v) => {
    notifySave = yes(v.Notify);
    session.send({ type: 'save', dontSaveIfUnmodified: yes(v.DontSaveIfUnmodified) || undefined, dontTerminateEdit: yes(v.DontTerminateEdit) || undefined });
  });
  bridge.on('Action_SaveAs', (v) => str(v.Filename) && session.send({ type: 'saveAs', name: str(v.Filename)! }));
  bridge.on('Action_Print', () => void app.exportDocument('pdf', 'print'));
  bridge.on('Action_Export', (v) => void app.exportDocument(str(v.Format) ?? 'pdf', 'download'));
  bridge.on('Action_Close', () => {
    expectedClose = true;
    session.send({ type: 'close' });
  });
  bridge.on('Close_Session', () => session.send({ type: 'closeDocument' }));
  bridge.on('Grab_Focus', () => app.view?.focus());
  // Collabora answers Get_Views with Get_Views_Resp, the spec with Views_List: both go, the same list.
  bridge.on('Get_Views', () => {
    const views = session.state.views.map((v) => hostView(v, session.state.status?.viewId));
    bridge.send('Get_Views_Resp', views);
    bridge.send('Views_List', views);
  });
  bridge.on('Action_InsertGraphic', (v) => str(v.url) && void insertGraphic(app, str(v.url)!));
  bridge.on('Action_InsertLink', (v) => {
    const url = str(v.url);
    if (url)
      session.uno('.uno:SetHyperlink', { 'Hyperlink.URL': { type: 'string', value: url }, 'Hyperlink.Text': { type: 'string', value: str(v.text) ?? url } });
  });
  bridge.on('Reset_Access_Token', (v) => {
    const token = str(v.token);
    if (!token) return;
    const ttl = Number(v.token_ttl);
    config.accessToken = token;
    config.accessTokenTtl = Number.isFinite(ttl) && ttl > 0 ? ttl : undefined;
    session.send({ type: 'resetAccessToken', token, tokenTtl: config.accessTokenTtl });
    overlays.hideTokenBanner();
  });
  bridge.on('Send_UNO_Command', (v) => {
    const command = str(v.Command);
    if (command)
      session.uno(
        command.startsWith('.uno:') ? command : `.uno:${command}`,
        typeof v.Args === 'object' && v.Args ? (v.Args as Record<string, { type: string; value: unknown }>) : undefined,
      );
  });
  const showHide = (hidden: boolean) => (v: Record<string, unknown>) => {
    const id = str(v.id);
    if (!id) return;
    const target = commandIdOfButton(id);
    if (hidden) hostHidden.add(target);
    else hostHidden.delete(target);
    applyPolicy(true);
  };
  bridge.on('Hide_Button', showHide(true));
  bridge.on('Show_Button', showHide(false));
  bridge.on('Hide_Menu_Item', showHide(true));
  bridge.on('Show_Menu_Item', showHide(false));
  // The spec spells them insert_button / clicked_button, Collabora Insert_Button / Clicked_Button: a click answers in
  // the spelling the host used to insert the button.
  const insertButton = (clicked: 'Clicked_Button' | 'clicked_button') => (v: Record<string, unknown>) => {
    const b = v as unknown as InsertButtonValues;
    if (!str(b.id)) return;
    bar.addCustom(b, () => (b.unoCommand ? session.uno(b.unoCommand) : bridge.send(clicked, { Id: b.id })));
    applyPolicy(true);
  };
  bridge.on('Insert_Button', insertButton('Clicked_Button'));
  bridge.on('insert_button', insertButton('clicked_button'));
  // Collabora answers with the formats of its Download as menu (app.file.exportFormats), whatever HideExportOption
  // says: hosts offer them in their own Save As dialog (EGroupware). Asked before the document is known, it answers once it is.
  bridge.on('Get_Export_Formats', () => {
    const answer = (docType: keyof typeof DOWNLOAD_FORMATS) =>
      bridge.send(
        'Get_Export_Formats_Resp',
        DOWNLOAD_FORMATS[docType].map((f) => ({ Label: t(`file.downloadAs.${f}`), Format: f })),
      );
    const st = session.state.status;
    if (st) answer(st.docType);
    else session.once('status', (m) => answer(m.docType));
  });
  // Collabora switches between its classic toolbar and the notebookbar; Ode's editor has one layout (as for
  // ui_defaults' UIMode): known, and nothing changes.
  bridge.on('Action_ChangeUIMode', (v) => console.info(`[ode] Action_ChangeUIMode ${JSON.stringify(v.Mode)}: the editor has one layout, nothing changes`));

  /** SaveAsPostmessage: Save As is the host's; the editor only asks with UI_SaveAs {format}. */
  function saveAsThroughHost(baseFileName: unknown) {
    const ext = (str(baseFileName) ?? '').split('.').pop()?.toLowerCase() ?? '';
    const own = commands.get('file.saveAs');
    commands.register({
      ...(own ?? { label: 'file.saveAs' }),
      id: 'file.saveAs',
      enabled: undefined,
      run: (format?: string) => bridge.send('UI_SaveAs', { format: format || ext }),
    });
  }
}
