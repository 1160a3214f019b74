import type { App } from '../core/app.ts';

/**
 * Host integration (issue 5 "Host integration"), first cut: PostMessages go only to CheckFileInfo's
 * PostMessageOrigin, in the envelope `{MessageId, SendTime, Values}`; App_LoadingStatus Document_Loaded / Failed.
 * Sets `app.postToHost`.
 */
export function mountHost(app: App): void {
  let origin: string | undefined;
  app.postToHost = (messageId, values = {}) => {
    if (!origin || window.parent === window) return;
    window.parent.postMessage(JSON.stringify({ MessageId: messageId, SendTime: Date.now(), Values: values }), origin);
  };
  app.session.on('status', (m) => {
    origin = typeof m.fileInfo.PostMessageOrigin === 'string' ? m.fileInfo.PostMessageOrigin : undefined;
  });
  app.events.on('documentLoaded', () => app.postToHost('App_LoadingStatus', { Status: 'Document_Loaded' }));
  app.session.on('conflict', () =>
    app.session.send({ type: 'resolveConflict', choice: confirm('This document was changed by someone else. OK: keep your version (overwrite). Cancel: load theirs (your changes are discarded).') ? 'overwrite' : 'reload' }),
  );
}
