/**
 * Locked and restricted users in the editor (spec: CheckFileInfo IsUserLocked, IsUserRestricted; docs/postmessage.md,
 * "Locked and restricted users"). The daemon resolves both into `status.features` (which features, and the command
 * ids of each); policy.ts hides the restricted commands and locks the locked ones. Here: what choosing a locked
 * command does — it posts `UI_Unlock {Command, Feature}` to the host, which may offer an upgrade or ask an
 * administrator, then reload the editor with a new CheckFileInfo — and the messages the chrome shows with the lock.
 * The daemon refuses the requests of both kinds of feature whatever the UI does (feature_locked, feature_restricted).
 */
import type { EditorToHost } from '../../../protocol/postmessage.ts';
import type { App } from '../core/app.ts';
import { registerMessages, t } from '../core/i18n.ts';

registerMessages({
  en: {
    'command.locked': 'Locked: choose it to ask for access',
    'unlock.asked': 'This feature is locked: your host was asked to unlock it.',
    'users.guest': 'guest',
  },
  fr: {
    'command.locked': 'Verrouillé : choisissez-le pour demander l’accès',
    'unlock.asked': 'Cette fonction est verrouillée : votre hôte a été invité à la déverrouiller.',
    'users.guest': 'invité',
  },
  de: {
    'command.locked': 'Gesperrt: auswählen, um Zugriff anzufordern',
    'unlock.asked': 'Diese Funktion ist gesperrt: Ihr Host wurde gebeten, sie freizuschalten.',
    'users.guest': 'Gast',
  },
});

/**
 * Makes a locked command's choice post UI_Unlock. `featureOf` gives the feature of a locked id (policy.ts's
 * `locked` map, which changes with every status).
 */
export function installUnlock(app: App, post: (values: EditorToHost['UI_Unlock']) => void, featureOf: (id: string) => string | undefined): void {
  app.commands.onLocked = (id) => {
    post({ Command: id, Feature: featureOf(id) ?? '' });
    app.notify(t('unlock.asked'));
  };
  // The daemon's refusal of a locked feature (a shortcut, or Send_UNO_Command) is a chance to unlock too.
  app.session.on('error', (m) => {
    if (m.code === 'feature_locked' && m.feature) post({ Command: '', Feature: m.feature });
  });
}
