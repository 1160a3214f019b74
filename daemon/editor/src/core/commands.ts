import { Emitter } from './emitter.ts';

/**
 * One user-facing command (a menu item, a toolbar button, a shortcut): what it is called, what it does, and when it
 * is shown, enabled or checked. Ids are stable names (`file.save`, `format.bold`, `insert.image`, ...) that menus,
 * toolbars, the PostMessage API (Hide_Button, clicked_button) and tests refer to.
 */
export interface UiCommand {
  id: string;
  /** Message catalogue key of the label (i18n.ts); also the ARIA label. */
  label: string;
  /** Shortcut as shown to the user, e.g. `Ctrl+B`. */
  shortcut?: string;
  /** Icon: a short text/emoji or the name of a built-in icon (chrome/icons.ts). */
  icon?: string;
  /** The UNO state it reflects (`.uno:Bold`): checked when that state is "true". */
  state?: string;
  run(arg?: string): void;
  /** Evaluated on every change; default: enabled. */
  enabled?(): boolean;
  checked?(): boolean;
}

type Events = { changed: (id: string | undefined) => void };

/**
 * Every command of the editor. Modules register their commands at mount; the chrome renders menus and toolbars
 * from ids; the host integration hides or disables ids (CheckFileInfo Hide... and Disable... properties, Hide_Button). A hidden
 * command is neither shown nor runnable from the UI; PostMessage may still run it (the spec: "still reachable").
 */
export class CommandRegistry extends Emitter<Events> {
  private readonly commands = new Map<string, UiCommand>();
  private readonly hidden = new Set<string>();
  private readonly disabled = new Set<string>();
  private readonly locked = new Set<string>();
  /**
   * Called when the user chooses a locked command (IsUserLocked): host/ tells the host (UI_Unlock). Unset: nothing
   * happens, as for a disabled command.
   */
  onLocked: ((id: string) => void) | undefined;

  /** Adds or replaces a command. */
  register(...commands: UiCommand[]): void {
    for (const c of commands) this.commands.set(c.id, c);
    this.emit('changed', undefined);
  }

  /** The command registered under `id`, if any. */
  get(id: string): UiCommand | undefined {
    return this.commands.get(id);
  }

  /** Every registered command, in registration order. */
  all(): UiCommand[] {
    return [...this.commands.values()];
  }

  /** Hides (or shows again) a command everywhere in the UI. */
  setHidden(id: string, hidden: boolean): void {
    if (hidden === this.hidden.has(id)) return;
    if (hidden) this.hidden.add(id);
    else this.hidden.delete(id);
    this.emit('changed', id);
  }

  /** Disables (or enables) a command beyond its own `enabled()`. */
  setDisabled(id: string, disabled: boolean): void {
    if (disabled === this.disabled.has(id)) return;
    if (disabled) this.disabled.add(id);
    else this.disabled.delete(id);
    this.emit('changed', id);
  }

  /**
   * Locks (or unlocks) a command (CheckFileInfo IsUserLocked): it stays shown but is disabled, with a lock; choosing
   * it calls `onLocked` instead of running it.
   */
  setLocked(id: string, locked: boolean): void {
    if (locked === this.locked.has(id)) return;
    if (locked) this.locked.add(id);
    else this.locked.delete(id);
    this.emit('changed', id);
  }

  /** True when `id` is locked (setLocked). */
  isLocked(id: string): boolean {
    return this.locked.has(id);
  }

  /** True when `id` is hidden, or not registered at all. */
  isHidden(id: string): boolean {
    return this.hidden.has(id) || !this.commands.has(id);
  }

  /** True when `id` is registered, not disabled or locked, and its own `enabled()` allows it. */
  isEnabled(id: string): boolean {
    const c = this.commands.get(id);
    return !!c && !this.disabled.has(id) && !this.locked.has(id) && (c.enabled?.() ?? true);
  }

  /**
   * Runs a command from the UI: nothing happens when it is hidden or disabled; a locked one calls `onLocked`.
   * Returns whether it ran.
   */
  run(id: string, arg?: string): boolean {
    if (!this.isHidden(id) && this.locked.has(id)) {
      this.onLocked?.(id);
      return false;
    }
    if (this.isHidden(id) || !this.isEnabled(id)) return false;
    this.commands.get(id)!.run(arg);
    return true;
  }

  /** Tells the UI to re-evaluate enabled/checked states (after a state change). */
  refresh(): void {
    this.emit('changed', undefined);
  }
}
