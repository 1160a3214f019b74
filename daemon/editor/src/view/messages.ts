import { registerMessages } from '../core/i18n.ts';

/** The document view's messages (en, fr, de). Imported for its effect by view/index.ts. */
registerMessages({
  en: {
    'view.input': 'Document text input',
    'view.document': 'Document',
    'view.selectedObject': 'Selected object',
    'view.contextMenu': 'Context menu',
    'view.cut': 'Cut',
    'view.copy': 'Copy',
    'view.paste': 'Paste',
    'view.copyFailed': 'The browser did not allow writing to the clipboard',
    'view.openLink': 'Open link',
    'view.linkWarning': 'This link is not a web address. Open it only if you trust it:',
    'view.close': 'Close',
  },
  fr: {
    'view.input': 'Saisie du texte du document',
    'view.document': 'Document',
    'view.selectedObject': 'Objet sélectionné',
    'view.contextMenu': 'Menu contextuel',
    'view.cut': 'Couper',
    'view.copy': 'Copier',
    'view.paste': 'Coller',
    'view.copyFailed': "Le navigateur n'a pas autorisé l'écriture dans le presse-papiers",
    'view.openLink': 'Ouvrir le lien',
    'view.linkWarning': "Ce lien n'est pas une adresse web. Ne l'ouvrez que si vous lui faites confiance :",
    'view.close': 'Fermer',
  },
  de: {
    'view.input': 'Texteingabe des Dokuments',
    'view.document': 'Dokument',
    'view.selectedObject': 'Ausgewähltes Objekt',
    'view.contextMenu': 'Kontextmenü',
    'view.cut': 'Ausschneiden',
    'view.copy': 'Kopieren',
    'view.paste': 'Einfügen',
    'view.copyFailed': 'Der Browser hat das Schreiben in die Zwischenablage nicht erlaubt',
    'view.openLink': 'Link öffnen',
    'view.linkWarning': 'Dieser Link ist keine Webadresse. Öffnen Sie ihn nur, wenn Sie ihm vertrauen:',
    'view.close': 'Schließen',
  },
});
