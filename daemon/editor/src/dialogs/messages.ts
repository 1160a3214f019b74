import { registerMessages } from '../core/i18n.ts';

/** The dialogs module's messages (en, fr, de). Command labels are their ids (core/commands.ts). */
export function registerDialogMessages(): void {
  registerMessages({
    en: {
      'format.paragraph': 'Paragraph…',
      'format.character': 'Character…',
      'format.page': 'Page style…',
      'tools.spelling': 'Spelling…',
      'tools.wordCount': 'Word count…',
      'dialogs.close': 'Close',
      'dialogs.window': '{title} (LibreOffice dialog: Tab moves between fields, Escape cancels)',
      'dialogs.untitled': 'Dialog',
      'dialogs.popup': 'List',
    },
    fr: {
      'format.paragraph': 'Paragraphe…',
      'format.character': 'Caractère…',
      'format.page': 'Style de page…',
      'tools.spelling': 'Orthographe…',
      'tools.wordCount': 'Statistiques…',
      'dialogs.close': 'Fermer',
      'dialogs.window': '{title} (boîte de dialogue LibreOffice : Tab passe d’un champ à l’autre, Échap annule)',
      'dialogs.untitled': 'Boîte de dialogue',
      'dialogs.popup': 'Liste',
    },
    de: {
      'format.paragraph': 'Absatz…',
      'format.character': 'Zeichen…',
      'format.page': 'Seitenvorlage…',
      'tools.spelling': 'Rechtschreibung…',
      'tools.wordCount': 'Wörter zählen…',
      'dialogs.close': 'Schließen',
      'dialogs.window': '{title} (LibreOffice-Dialog: Tab wechselt das Feld, Esc bricht ab)',
      'dialogs.untitled': 'Dialog',
      'dialogs.popup': 'Liste',
    },
  });
}
