import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';

const KEEP = 80;

/** Short text of a message for the list (tiles and long payloads are cut). */
function brief(value: unknown): string {
  const s = JSON.stringify(value) ?? '';
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
}

/**
 * The debug overlay (iframe parameters `debug` and `randomUser`; Ctrl+Shift+Alt+D toggles it, as Collabora's): the
 * last messages in and out on the editing socket and on the PostMessage channel, the tiles received, and load
 * timings (ms since navigation start: origin known, `status`, Document_Loaded). Returns `toggle` and `trace` (the
 * PostMessage bridge reports its traffic there).
 */
export function createDebug(app: App): { toggle(force?: boolean): void; trace(line: string): void; mark(name: 'origin' | 'status' | 'loaded'): void } {
  const lines: string[] = [];
  const marks: Record<string, number | undefined> = {};
  let tiles = 0;
  let states = 0;
  let bytes = 0;
  let panel: HTMLElement | undefined;
  let list: HTMLOListElement | undefined;
  let stats: HTMLElement | undefined;
  let scheduled = false;

  const render = () => {
    scheduled = false;
    if (!panel || panel.hidden) return;
    stats!.textContent = `${t('host.debug.tiles', { count: tiles, kb: Math.round(bytes / 1024) })} · ${t('host.debug.states', { count: states })} · ${t('host.debug.timings', { origin: marks.origin ?? '–', status: marks.status ?? '–', loaded: marks.loaded ?? '–' })}`;
    list!.replaceChildren(...lines.map((l) => Object.assign(document.createElement('li'), { textContent: l })));
  };
  const schedule = () => {
    if (!scheduled && panel && !panel.hidden) (scheduled = true), requestAnimationFrame(render);
  };
  const trace = (line: string) => {
    lines.push(`${(performance.now() / 1000).toFixed(2)} ${line}`);
    if (lines.length > KEEP) lines.shift();
    schedule();
  };

  // UNO state changes come in bursts of dozens: counted, not listed.
  app.session.on('message', (m) => (m.type === 'stateChanged' ? (states++, schedule()) : trace(`⇣ ${brief(m)}`)));
  app.session.on('sent', (m) => {
    if (m.type !== 'tiles') trace(`⇡ ${brief(m)}`);
    else trace(`⇡ tiles ×${m.positions.length} part ${m.part}`);
  });
  app.session.on('tile', (_h, png) => {
    tiles++;
    bytes += png.length;
    schedule();
  });
  app.session.on('closed', (code, reason) => trace(`closed ${code} ${reason}`));

  const build = () => {
    panel = document.createElement('section');
    panel.className = 'ode-host-debug';
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', t('host.debug.title'));
    const head = document.createElement('div');
    head.className = 'ode-host-debug-head';
    const title = Object.assign(document.createElement('strong'), { textContent: t('host.debug.title') });
    const close = Object.assign(document.createElement('button'), { type: 'button', className: 'ode-button', textContent: '×', title: t('host.close') });
    close.setAttribute('aria-label', t('host.close'));
    close.addEventListener('click', () => toggle(false));
    head.append(title, close);
    stats = document.createElement('p');
    list = Object.assign(document.createElement('ol'), { className: 'ode-host-debug-list' });
    list.setAttribute('aria-label', t('host.debug.messages'));
    panel.append(head, stats, list);
    panel.addEventListener('keydown', (e) => e.key === 'Escape' && toggle(false));
    app.slots.popups.append(panel);
  };
  const toggle = (force?: boolean) => {
    if (!panel) build();
    panel!.hidden = force === undefined ? !panel!.hidden : !force;
    document.documentElement.classList.toggle('ode-debug', !panel!.hidden);
    if (!panel!.hidden) render();
    else app.view?.focus();
  };
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.ctrlKey && e.shiftKey && e.altKey && e.code === 'KeyD') {
        e.preventDefault();
        e.stopPropagation();
        toggle();
      }
    },
    true,
  );
  return {
    toggle,
    trace,
    mark(name) {
      marks[name] ??= Math.round(performance.now());
      schedule();
    },
  };
}
