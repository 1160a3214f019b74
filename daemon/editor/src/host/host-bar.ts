import type { InsertButtonValues } from '../../../protocol/postmessage.ts';
import type { App } from '../core/app.ts';
import { t } from '../core/i18n.ts';
import { markLocked } from '../chrome/locked.ts';

/**
 * The host's part of the toolbar: buttons the host added (Insert_Button), See history (file.versions), Close
 * (file.close) and the Guest badge. Each button follows its command: hidden when the command is hidden (CheckFileInfo,
 * iframe parameters, Hide_Button), disabled when it is disabled.
 */
export class HostBar {
  readonly element = document.createElement('div');
  private readonly guest = document.createElement('span');
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly custom = document.createElement('span');

  constructor(private readonly app: App) {
    this.element.className = 'ode-host-bar';
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-label', 'Host');
    this.guest.className = 'ode-host-guest';
    this.guest.hidden = true;
    this.custom.className = 'ode-host-custom';
    this.element.append(this.custom, this.guest, this.commandButton('file.versions'), this.commandButton('file.close', '×'));
    app.commands.on('changed', () => this.refresh());
  }

  /** Puts the bar at the end of the menu bar's row (again, if the chrome rebuilt it). */
  attach(): void {
    if (!this.element.isConnected) this.app.slots.menubar.append(this.element);
  }

  /** Shows "Guest" (IsAnonymousUser). */
  setGuest(guest: boolean): void {
    this.guest.textContent = t('host.guest');
    this.guest.hidden = !guest;
  }

  /** Adds (or replaces) a host button; its command has the host's id. */
  addCustom(v: InsertButtonValues, run: () => void): void {
    const label = v.hint || v.label || v.id;
    this.app.commands.register({ id: v.id, label, icon: v.imgurl, run });
    const b = this.commandButton(v.id);
    b.classList.add('ode-host-custom-button');
    b.replaceChildren();
    if (v.imgurl) {
      const img = Object.assign(document.createElement('img'), { src: v.imgurl, alt: '', width: 18, height: 18 });
      // An icon that does not load (a path of Collabora's image set Ode does not draw, a host the CSP refuses): the text.
      img.addEventListener('error', () => img.replaceWith(v.label || v.hint || v.id));
      b.append(img);
    } else b.append(v.label || v.hint || v.id);
    b.setAttribute('aria-label', label);
    b.title = label;
    const old = this.custom.querySelector(`[data-command="${CSS.escape(v.id)}"]`);
    if (old) old.replaceWith(b);
    else this.custom.append(b);
    this.attach();
    this.refresh();
  }

  private commandButton(id: string, text?: string): HTMLButtonElement {
    const b = Object.assign(document.createElement('button'), { type: 'button', className: 'ode-button ode-host-button', hidden: true });
    b.dataset.command = id;
    b.append(text ?? t(id));
    if (text) b.setAttribute('aria-label', t(id));
    b.title = t(id);
    b.addEventListener('click', () => this.app.commands.run(id));
    this.buttons.set(id, b);
    return b;
  }

  private refresh(): void {
    for (const [id, b] of this.buttons) {
      b.hidden = this.app.commands.isHidden(id);
      // A locked command stays clickable: choosing it asks the host to unlock (restrictions.ts).
      const locked = this.app.commands.isLocked(id);
      b.disabled = !this.app.commands.isEnabled(id) && !locked;
      if (locked) b.setAttribute('aria-disabled', 'true');
      else b.removeAttribute('aria-disabled');
      markLocked(b, locked);
    }
  }
}
