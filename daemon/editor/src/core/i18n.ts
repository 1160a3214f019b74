/**
 * The UI's message catalogue (issue 5: the UI in English and at least one more language). Each module registers
 * its own messages per language (`registerMessages`); `t(key, vars)` looks a key up in the current language, then
 * in English, and fills `{name}` placeholders. Keys are dotted names (`menu.file`, `status.saved`).
 */
export type Catalogue = Record<string, string>;

const catalogues = new Map<string, Catalogue>();
let current = 'en';

/** The languages the UI is translated to (BCP 47 primary tags). */
export const UI_LANGUAGES = ['en', 'fr', 'de'] as const;

/** Adds messages of one or more languages: `{en: {...}, fr: {...}}`. Later registrations override keys. */
export function registerMessages(byLang: Record<string, Catalogue>): void {
  for (const [lang, messages] of Object.entries(byLang)) catalogues.set(lang, { ...catalogues.get(lang), ...messages });
}

/**
 * Chooses the UI language from a BCP 47 tag (`lang` iframe parameter, e.g. `fr-FR`): its primary tag when the UI is
 * translated to it, else English. Returns the chosen tag.
 */
export function setLanguage(tag: string | undefined): string {
  const primary = (tag ?? 'en').toLowerCase().split(/[-_]/)[0];
  current = (UI_LANGUAGES as readonly string[]).includes(primary) ? primary : 'en';
  document.documentElement.lang = current;
  return current;
}

/** The current UI language. */
export function language(): string {
  return current;
}

/** The message `key` in the UI language (English when missing; the key itself when unknown), `{name}` filled. */
export function t(key: string, vars: Record<string, string | number> = {}): string {
  const text = catalogues.get(current)?.[key] ?? catalogues.get('en')?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}
