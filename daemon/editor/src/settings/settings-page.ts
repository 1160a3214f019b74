/**
 * The settings iframe's content (docs/settings.md; spec: settings iframe, "Settings endpoints implemented by the
 * host"): one section per setting name (autotext, wordbook, xcu, then any other name the host lists), each file
 * with its name and stamp and Replace / Delete buttons (wordbooks also Edit words), an upload form per section,
 * and the host's answer to each action shown in the section (its `status`, `message` or `details`) before the list
 * is fetched again.
 */
import { t } from '../core/i18n.ts';
import type { SettingFile, SettingsApi, SettingsListing, ShownAnswer } from './api.ts';
import { el } from './dom.ts';
import { wordbookEditor } from './wordbook-editor.ts';
import { emptyWordbook, parseWordbook, serializeWordbook, type Wordbook } from './wordbook.ts';

/** The setting names shown even when the host lists none of their files, in this order. */
const KNOWN = ['autotext', 'wordbook', 'xcu'];
const ACCEPT: Record<string, string> = { autotext: '.bau', wordbook: '.dic', xcu: '.xcu' };

/** The last answer shown in a section. */
interface SectionAnswer {
  answer: ShownAnswer;
  action: string;
  file: string;
}

/** One settings page: `type` is `userconfig` or `systemconfig`. */
export class SettingsPage {
  private readonly root: HTMLElement;
  private readonly api: SettingsApi;
  private readonly type: string;
  private readonly admin: boolean;
  private listing: SettingsListing | undefined;
  private listError: string | undefined;
  private readonly answers = new Map<string, SectionAnswer>();
  private editing: { name: string; file: string; book: Wordbook } | undefined;

  constructor(root: HTMLElement, api: SettingsApi, type: string, admin: boolean) {
    this.root = root;
    this.api = api;
    this.type = type;
    this.admin = admin;
  }

  /** Fetches the listing again and renders it (a failure is shown in place of the sections). */
  async refresh(): Promise<void> {
    this.root.setAttribute('aria-busy', 'true');
    try {
      this.listing = await this.api.list(this.type);
      this.listError = undefined;
    } catch (e) {
      this.listError = (e as Error).message;
    }
    this.render();
    this.root.setAttribute('aria-busy', 'false');
  }

  private fileId(name: string, file: string): string {
    return `/settings/${this.type}/${name}/${file}`;
  }

  private sectionTitle(name: string): string {
    return KNOWN.includes(name) ? t(`settings.section.${name}`) : name;
  }

  /** Runs an upload/delete/save, shows its answer in the section, and lists again. */
  private async act(name: string, actionKey: string, file: string, run: () => Promise<ShownAnswer>): Promise<void> {
    const action = t(`settings.action.${actionKey}`);
    this.answers.set(name, { answer: { ok: true, hostStatus: undefined, status: '', text: '' }, action, file });
    this.showWorking(name, t('settings.working', { action, file }));
    const answer = await run();
    this.answers.set(name, { answer, action, file });
    await this.refresh();
  }

  private showWorking(name: string, text: string): void {
    const p = this.root.querySelector<HTMLElement>(`section[data-setting="${CSS.escape(name)}"] .ode-settings-answer`);
    if (p) {
      p.textContent = text;
      p.dataset.ok = 'pending';
    }
  }

  private upload(name: string, file: Blob, as: string): Promise<void> {
    return this.act(name, 'upload', as, () => this.api.upload(this.fileId(name, as), file));
  }

  private async openWordbook(name: string, f: SettingFile): Promise<void> {
    try {
      this.editing = { name, file: f.file, book: parseWordbook(await this.api.readText(f.uri)) };
    } catch (e) {
      this.answers.set(name, {
        answer: { ok: false, hostStatus: undefined, status: 'error', text: t('wordbook.unreadable', { file: f.file, message: (e as Error).message }) },
        action: t('settings.edit'),
        file: f.file,
      });
    }
    this.render();
  }

  private render(): void {
    const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.key;
    const heading = el('h1', { id: 'ode-settings-title' }, t(this.admin ? 'settings.title.admin' : 'settings.title.user'));
    const intro = el('p', { class: 'ode-settings-intro' }, t(this.admin ? 'settings.intro.admin' : 'settings.intro.user'));
    if (this.listError !== undefined || !this.listing) {
      this.root.replaceChildren(
        heading,
        intro,
        el('p', { class: 'ode-settings-error', role: 'alert' }, t('settings.listFailed', { message: this.listError ?? '' })),
      );
      return;
    }
    const names = [
      ...KNOWN,
      ...Object.keys(this.listing.settings)
        .filter((n) => !KNOWN.includes(n))
        .sort(),
    ];
    this.root.replaceChildren(heading, intro, ...names.map((n) => this.section(n, this.listing!.settings[n] ?? [])));
    if (focusKey) this.root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  }

  private section(name: string, files: SettingFile[]): HTMLElement {
    const headId = `ode-settings-h-${name}`;
    const inputId = `ode-settings-up-${name}`;
    const list = el('ul', { class: 'ode-settings-files', 'aria-labelledby': headId });
    for (const f of files) list.append(this.fileItem(name, f));
    const input = el('input', { type: 'file', id: inputId, accept: ACCEPT[name], 'data-key': `up-${name}` });
    const form = el(
      'form',
      {
        class: 'ode-settings-upload',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const file = input.files?.[0];
          if (!file) {
            this.answers.set(name, {
              answer: { ok: false, hostStatus: undefined, status: t('settings.noFile'), text: '' },
              action: t('settings.action.upload'),
              file: '',
            });
            this.render();
            return;
          }
          void this.upload(name, file, file.name);
        },
      },
      el('label', { for: inputId }, t('settings.chooseFile', { section: this.sectionTitle(name) })),
      ' ',
      input,
      ' ',
      el('button', { type: 'submit', 'data-key': `upload-${name}` }, t('settings.upload')),
    );
    const shown = this.answers.get(name);
    const answer = el('p', { class: 'ode-settings-answer', role: 'status', 'aria-live': 'polite', 'data-ok': shown ? String(shown.answer.ok) : undefined });
    if (shown?.answer.status)
      answer.textContent = `${t('settings.answer', { action: shown.action, file: shown.file, status: shown.answer.status })}${shown.answer.text ? ` — ${shown.answer.text}` : ''}`;
    const section = el(
      'section',
      { class: 'ode-settings-section', 'data-setting': name, 'aria-labelledby': headId },
      el('h2', { id: headId }, this.sectionTitle(name)),
      files.length ? list : el('p', { class: 'ode-settings-empty' }, t('settings.empty')),
      form,
    );
    if (name === 'wordbook') section.append(this.newWordbookForm(name));
    if (this.editing?.name === name) {
      const { file, book } = this.editing;
      section.append(
        wordbookEditor({
          file,
          book,
          onSave: (b) => {
            this.editing = undefined;
            void this.upload(name, new Blob([serializeWordbook(b)], { type: 'text/plain' }), file);
          },
          onCancel: () => {
            this.editing = undefined;
            this.render();
          },
        }),
      );
    }
    section.append(answer);
    return section;
  }

  private fileItem(name: string, f: SettingFile): HTMLElement {
    const replaceInput = el('input', {
      type: 'file',
      class: 'ode-settings-replace-input',
      hidden: true,
      tabindex: '-1',
      'aria-hidden': 'true',
      accept: ACCEPT[name],
      onchange: () => {
        const chosen = replaceInput.files?.[0];
        if (chosen) void this.upload(name, chosen, f.file);
      },
    });
    const key = `${name}/${f.file}`;
    // Edit, Replace and Delete: the action names the class, the data-key and the messages (settings.<action>, .<action>Label).
    const button = (action: 'edit' | 'replace' | 'delete', onclick: () => void) =>
      el(
        'button',
        {
          type: 'button',
          class: `ode-settings-${action}`,
          'data-key': `${action}-${key}`,
          'aria-label': t(`settings.${action}Label`, { file: f.file }),
          onclick,
        },
        t(`settings.${action}`),
      );
    return el(
      'li',
      { 'data-file': f.file },
      el('span', { class: 'ode-settings-file' }, f.file),
      ' ',
      el('span', { class: 'ode-settings-stamp' }, t('settings.stamp', { stamp: f.stamp })),
      ' ',
      name === 'wordbook' && /\.dic$/i.test(f.file) ? button('edit', () => void this.openWordbook(name, f)) : null,
      ' ',
      button('replace', () => replaceInput.click()),
      replaceInput,
      ' ',
      button('delete', () => void this.act(name, 'delete', f.file, () => this.api.remove(this.fileId(name, f.file)))),
    );
  }

  /** A wordbook can also start empty: a name, then the in-place editor; Save creates the file. */
  private newWordbookForm(name: string): HTMLElement {
    const inputId = 'ode-settings-new-wordbook';
    const input = el('input', { type: 'text', id: inputId, 'data-key': 'new-wordbook', placeholder: 'custom.dic', autocomplete: 'off' });
    return el(
      'form',
      {
        class: 'ode-settings-new',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const raw = input.value.trim().replace(/[/\\]/g, '');
          if (!raw) return;
          this.editing = { name, file: /\.dic$/i.test(raw) ? raw : `${raw}.dic`, book: emptyWordbook() };
          this.render();
        },
      },
      el('label', { for: inputId }, t('settings.newWordbookName')),
      ' ',
      input,
      ' ',
      el('button', { type: 'submit' }, t('settings.create')),
    );
  }
}
