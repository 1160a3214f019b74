/**
 * The browser editor served at discovery's urlsrc (issue 5). Reads the page's configuration, opens the editing
 * socket (daemon/protocol/editor.md), builds the layout and mounts the modules: the document view, the chrome,
 * the host integration (PostMessage), and the per-type parts (spreadsheets, presentations and drawings, dialogs).
 * Imports nothing outside daemon/editor but protocol/.
 */
import { mountCalc } from './calc/index.ts';
import { mountChrome } from './chrome/index.ts';
import { mountCitations } from './citations/index.ts';
import { readConfig } from './connection.ts';
import { createApp } from './core/app.ts';
import { setLanguage } from './core/i18n.ts';
import { EditorSession } from './core/session.ts';
import { mountDialogs } from './dialogs/index.ts';
import { mountESignature } from './esignature/index.ts';
import { mountHost } from './host/index.ts';
import { mountMobile } from './mobile/index.ts';
import { mountSigning } from './signing/index.ts';
import { mountSlides } from './slides/index.ts';
import { mountView } from './view/index.ts';

const config = readConfig(document);
setLanguage(config.settings.lang);
const root = document.getElementById('ode-app')!;
root.setAttribute('aria-busy', 'true');
const session = new EditorSession(config);
const app = createApp(root, config, session);
mountHost(app);
mountView(app);
mountChrome(app);
mountCalc(app);
mountSlides(app);
mountDialogs(app);
mountESignature(app);
mountCitations(app);
mountSigning(app);
mountMobile(app);

// Document_Loaded: the view is live and its first tiles are on the canvas.
session.once('status', () => {
  root.setAttribute('aria-busy', 'false');
  app.events.once('painted', () => app.events.emit('documentLoaded'));
});
session.on('closed', (code, reason) => {
  if (!session.state.status) app.events.emit('loadFailed', reason || `code ${code}`);
});
