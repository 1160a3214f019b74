/**
 * The panels around the document (issue 5 "Chrome"): the status bar (status-bar.ts, sets `app.notify`), the users
 * list (users.ts, `view.users`), the comments panel (comments.ts, `view.comments`), find and replace
 * (find-replace.ts, `edit.findReplace`) and the sidebar (sidebar/, `view.sidebar`). The users, comments and sidebar
 * panels share the `right` slot (panels-dom.ts).
 */
import type { App } from '../core/app.ts';
import { mountComments } from './comments.ts';
import { mountFindReplace } from './find-replace.ts';
import { RightDock } from './panels-dom.ts';
import { mountStatusBar } from './status-bar.ts';
import { mountUsers } from './users.ts';
import { mountSidebar } from '../sidebar/index.ts';

export function mountPanels(app: App): void {
  const dock = new RightDock(app.slots.right);
  mountStatusBar(app);
  mountUsers(app, dock);
  mountComments(app, dock);
  mountSidebar(app, dock);
  mountFindReplace(app);
}
