/**
 * The sidebar (issue 23, item 1): LibreOffice's own sidebar decks (Properties: character, paragraph, cell, shape,
 * slide layout; Slide Transition) shown as HTML in the right dock, as Collabora Online does. Once the view asks
 * for it (`.uno:SidebarShow`, then the deck's command such as `.uno:SidebarDeck.PropertyDeck`), LibreOffice 25.2
 * sends the sidebar as JSDialog messages (`dialog` with `jsontype: 'sidebar'`: the whole tree whose children are
 * `deck`s, then updates and actions as the selection changes), which jsdialog/ renders; the widgets' events go back
 * as `dialogEvent`s of the sidebar's window. Registers `view.sidebar` (not on phones: the sidebar is a desktop and
 * tablet panel) and, in presentations, `slide.transition` (the Slide Transition deck).
 */
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';
import { parseJsDialog, type JsDialogTree } from '../jsdialog/model.ts';
import { JsDialogPanel } from '../jsdialog/panel.ts';
import { deviceFormFactor } from '../mobile/device.ts';
import { onCommandsChanged } from '../chrome/command-state.ts';
import { stateText } from '../chrome/dom.ts';
import type { RightDock } from '../chrome/panels-dom.ts';

registerMessages({
  en: { 'view.sidebar': 'Sidebar', 'sidebar.title': 'Properties', 'sidebar.loading': 'Loading the properties…', 'slide.transition': 'Slide transition…' },
  fr: {
    'view.sidebar': 'Volet latéral',
    'sidebar.title': 'Propriétés',
    'sidebar.loading': 'Chargement des propriétés…',
    'slide.transition': 'Transition de diapositive…',
  },
  de: {
    'view.sidebar': 'Seitenleiste',
    'sidebar.title': 'Eigenschaften',
    'sidebar.loading': 'Eigenschaften werden geladen…',
    'slide.transition': 'Folienübergang…',
  },
});

/** The decks the editor opens and the UNO command that shows each (as Collabora's Sidebar.commandForDeck). */
const DECKS = { PropertyDeck: '.uno:SidebarDeck.PropertyDeck', SdSlideTransitionDeck: '.uno:SlideChangeWindow' } as const;
type DeckId = keyof typeof DECKS;

/** Actions on the containers every panel has under the same name (Collabora ignores them too: a whole tree follows). */
const SHARED_NAMES = /^(contents|titlebar|expander|addonimage|toolbar)/;

/** The tree without what is not a deck (LibreOffice sends its tab bar beside the decks): Collabora keeps decks only. */
function decksOnly(tree: JsDialogTree): JsDialogTree {
  const children = (tree.children ?? []).filter((c) => c.type === 'deck');
  return { ...tree, children: children.length ? children : (tree.children ?? []) };
}

/** The id of the deck LibreOffice shows (the first deck not hidden), if any. */
function shownDeck(tree: JsDialogTree): string | undefined {
  return (tree.children ?? []).find((c) => c.type === 'deck' && c.visible !== false)?.id;
}

/** Mounts the sidebar into `dock` (chrome/panels.ts). */
export function mountSidebar(app: App, dock: RightDock): void {
  const { session, commands } = app;
  const body = document.createElement('div');
  body.className = 'ode-sidebar';
  const waiting = document.createElement('p');
  waiting.className = 'ode-panel-empty';
  waiting.textContent = t('sidebar.loading');
  body.append(waiting);
  let panel: JsDialogPanel | undefined;
  /** The user asked for the sidebar: LibreOffice's next tree opens the dock. */
  let wanted = false;
  /** What was asked of LibreOffice last: shown (SidebarShow) or not. */
  let shownInKit = false;

  /** The deck the user asked for: once LibreOffice's tree shows another one, its command is sent (once). */
  let target: DeckId = 'PropertyDeck';
  let targetAsked = false;

  const editable = () => session.live && !session.state.status?.readonly;
  /**
   * Shows the sidebar with deck `deck`: `.uno:SidebarShow` opens LibreOffice's sidebar on its last deck; the
   * deck's own command is sent only when another deck is shown (sent for the deck already shown, LibreOffice
   * closes the sidebar).
   */
  const ask = (deck: DeckId) => {
    wanted = true;
    target = deck;
    targetAsked = false;
    dock.toggle('sidebar', true);
    if (!shownInKit) {
      shownInKit = true;
      session.uno('.uno:SidebarShow');
    } else if (panel && shownDeck(panel.dialog) !== deck) {
      targetAsked = true;
      session.uno(DECKS[deck]);
    }
  };
  const hideInKit = () => {
    wanted = false;
    if (!shownInKit || !session.live) return;
    shownInKit = false;
    session.uno('.uno:SidebarHide');
  };

  dock.add('sidebar', t('sidebar.title'), body);
  dock.onChange((open) => {
    if (open !== 'sidebar') hideInKit();
    commands.refresh();
  });

  const show = (tree: JsDialogTree, windowId: number) => {
    if (wanted && !targetAsked && shownDeck(tree) !== target) {
      targetAsked = true;
      session.uno(DECKS[target]);
    }
    const decks = decksOnly(tree);
    if (panel && panel.windowId === windowId) panel.replace(decks);
    else {
      // A tool item's UNO command runs as the view's command (Collabora's sidebar does the same).
      const uno = (command: string) => {
        session.uno(command);
        app.events.emit('userActive');
      };
      panel = new JsDialogPanel(windowId, decks, (event) => session.send({ type: 'dialogEvent', windowId, event }), 'ode-sidebar-body', uno);
      body.replaceChildren(panel.element);
    }
    syncPressed();
    if (wanted && !dock.isOpen('sidebar')) dock.toggle('sidebar', true);
  };
  /**
   * The pressed state of the tool items that are UNO toggles (`.uno:Bold`) from LibreOffice's command states, as
   * Collabora's sidebar buttons follow them: the sidebar's own `selected` comes only with a rebuilt toolbox.
   */
  const syncPressed = () => {
    if (!panel) return;
    for (const b of panel.element.querySelectorAll<HTMLElement>('.ode-jsd-toolitem[aria-pressed]')) {
      const value = stateText(session.state.states.get(b.dataset.jsdId ?? ''));
      if (value === 'true' || value === 'false') b.setAttribute('aria-pressed', value);
    }
  };
  onCommandsChanged(app, syncPressed);

  const forget = () => {
    panel = undefined;
    body.replaceChildren(waiting);
  };

  session.on('dialog', (m) => {
    const msg = parseJsDialog(m.json);
    if (!msg || msg.jsontype !== 'sidebar') return;
    switch (msg.kind) {
      case 'full':
        return show(msg.dialog, msg.windowId);
      case 'update':
        if (panel?.windowId === msg.windowId) panel.update(msg.control);
        syncPressed();
        return;
      case 'action':
        if (panel?.windowId === msg.windowId && !SHARED_NAMES.test(msg.controlId)) panel.action(msg.controlId, msg.actionType, msg.data);
        return;
      case 'close':
        if (panel?.windowId !== msg.windowId) return;
        forget();
        shownInKit = false;
        if (dock.isOpen('sidebar')) dock.toggle('sidebar', false);
        return;
    }
  });
  // A new document in the kit (reload, a kit that died and came back) has no sidebar until asked again.
  for (const type of ['reloaded', 'kitDied', 'idle'] as const)
    session.on(type, () => {
      forget();
      shownInKit = false;
      if (dock.isOpen('sidebar')) dock.toggle('sidebar', false);
    });

  session.once('status', (status) => {
    if (deviceFormFactor() === 'mobile') return;
    commands.register({
      id: 'view.sidebar',
      label: 'view.sidebar',
      enabled: editable,
      checked: () => dock.isOpen('sidebar'),
      run: () => (dock.isOpen('sidebar') ? dock.toggle('sidebar', false) : ask('PropertyDeck')),
    });
    if (status.docType === 'presentation')
      commands.register({ id: 'slide.transition', label: 'slide.transition', enabled: editable, run: () => ask('SdSlideTransitionDeck') });
  });
}
