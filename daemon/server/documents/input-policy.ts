import type { KitEditEvent } from './editing-kit.ts';

/**
 * UNO commands that never change a document: selection, navigation, search without replace, zoom, copy, export
 * and print, showing or hiding the sidebar and its decks, the notes and normal views of a presentation. Everything
 * else is treated as a change. The daemon refuses the changes for read-only views as Collabora's server does, before
 * LibreOffice's own read-only view (setViewReadOnly, kit view-rights.ts) would ignore them.
 */
const SAFE_UNO =
  /^\.uno:(Copy|SelectAll|Deselect|GoTo\w*|GoLeft|GoRight|GoUp|GoDown|Jump\w*|ExecuteSearch|SearchDialog|Zoom\w*|ZoomPlus|ZoomMinus|Print\w*|ExportTo\w*|DownloadAs\w*|CharFontName|FontHeight|StyleApply:?\w*Query|NextTrackedChange|PreviousTrackedChange|SidebarDeck\.\w+|SidebarShow|SidebarHide|SlideChangeWindow|NotesMode|NormalMultiPaneGUI|Navigator|SpellingAndGrammarDialog)$/;

/** The comment commands a comments-only view (a pdf opened with view_comment) may send (LibreOffice's UNO names). */
const COMMENT_UNO =
  /^\.uno:(InsertAnnotation|EditAnnotation|DeleteAnnotation|ReplyToAnnotation|ReplyComment|DeleteComment|DeleteAllAnnotation|DeleteAllAnnotationByAuthor)$/;

/** True for a comment command: the one change a comments-only view may make. */
export function isCommentCommand(e: KitEditEvent): boolean {
  return e.type === 'uno' && COMMENT_UNO.test(e.command);
}

/**
 * True when an input event may change the document, so that a read-only view is refused it and a writable one
 * counts as a user change (X-ODE-WOPI-IsModifiedByUser, idle save). Mouse moves and clicks, zoom, the visible
 * area, part switches, key releases, navigation keys and safe UNO commands are not changes; typed keys, text,
 * paste and other commands are. A search
 * that replaces (`.uno:ExecuteSearch` with a Replace command) is a change.
 */
export function isModifyingEvent(e: KitEditEvent): boolean {
  switch (e.type) {
    case 'mouse':
    case 'selectText':
    case 'setPart':
    case 'clientZoom':
    case 'clientVisibleArea':
    case 'windowMouse':
      return false;
    case 'key':
    case 'windowKey':
      // Key releases and the navigation keys (vcl KEY_DOWN..KEY_PAGEDOWN, 1024-1031, with any modifier) move, not change.
      return e.event === 'input' && !(e.charCode === 0 && (e.keyCode & 0x0fff) >= 1024 && (e.keyCode & 0x0fff) <= 1031);
    case 'uno':
      return (
        !SAFE_UNO.test(e.command) || (e.command === '.uno:ExecuteSearch' && /"SearchItem\.Command"\s*:\s*\{[^}]*"value"\s*:\s*"?(2|3)"?/.test(e.args ?? ''))
      );
    default:
      return true;
  }
}
