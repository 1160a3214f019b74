import { t } from '../core/i18n.ts';

/**
 * Marks a menu item or toolbar button of a locked command (CheckFileInfo IsUserLocked; host/restrictions.ts): a
 * lock badge, `data-locked`, and an accessible description saying that choosing it asks for access. The control
 * stays focusable and aria-disabled; choosing it runs the registry, which asks the host to unlock.
 */
export function markLocked(control: HTMLElement, locked: boolean): void {
  const badge = control.querySelector(':scope > .ode-lock-badge');
  control.classList.toggle('ode-locked', locked);
  if (!locked) {
    badge?.remove();
    control.removeAttribute('data-locked');
    if (control.dataset.lockedTitle !== undefined) {
      control.title = control.dataset.lockedTitle;
      delete control.dataset.lockedTitle;
    }
    control.removeAttribute('aria-description');
    return;
  }
  control.setAttribute('data-locked', 'true');
  control.setAttribute('aria-description', t('command.locked'));
  if (control.title && control.dataset.lockedTitle === undefined) {
    control.dataset.lockedTitle = control.title;
    control.title = `${control.title} — ${t('command.locked')}`;
  }
  if (!badge) {
    const b = document.createElement('span');
    b.className = 'ode-lock-badge';
    b.setAttribute('aria-hidden', 'true');
    b.textContent = '🔒';
    control.append(b);
  }
}
