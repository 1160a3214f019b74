import { CLOSE } from '../../../protocol/editor.ts';
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { reopen } from './overlays.ts';

/** How long the editor waits for the load balancer to send this document to a serving node (ms). */
const MOVE_LIMIT_MS = 60_000;

/**
 * Moving to another node when this one drains (editor.md `draining`, close 4503; docs/deploy/cluster.md): the user
 * is told, input stops (EditorSession.send), and once the daemon saved the document and closed the socket the
 * editor asks `/health?WOPISrc=...` through the load balancer until a serving node answers 200 (the balancer's own
 * health check has then taken the draining node out), and opens the document again with the same WOPISrc and
 * token (reopen: the page's form posted again). After MOVE_LIMIT_MS it reopens anyway, showing what the balancer
 * answers.
 */
export function installMove(app: App): void {
  app.session.on('draining', () => app.notify(t('host.moving')));
  app.session.on('closed', (code) => {
    if (code === CLOSE.draining) void moveAndReopen(app);
  });
}

async function moveAndReopen(app: App): Promise<void> {
  const probe = `${location.origin}/health?WOPISrc=${encodeURIComponent(app.config.wopiSrc)}`;
  const deadline = Date.now() + MOVE_LIMIT_MS;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(probe, { cache: 'no-store' })).ok) break;
    } catch {
      /* the balancer or the network is between two states: ask again */
    }
    await new Promise((r) => setTimeout(r, 250 + Math.random() * 250));
  }
  reopen(app);
}
