/** Helpers the editor's unit tests share (imported by tests only, so not in the bundle). */
import type { KeyLike } from './keys.ts';

/** A KeyLike as a browser KeyboardEvent gives it: `key`, `code` and the modifiers in `mods` (the others false). */
export function keyLike(key: string, code = '', mods: Partial<Pick<KeyLike, 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>> = {}): KeyLike {
  return { key, code, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods };
}
