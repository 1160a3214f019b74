import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLOSE } from './editor.ts';
import { SOCKET_ERRORS } from './socket-errors.ts';

const EDITOR_MD = readFileSync(new URL('./editor.md', import.meta.url), 'utf8');
const SERVER = new URL('../server/', import.meta.url).pathname;

/** The rows of the editor.md table under `## <heading>`: the first cell of each row. */
function tableOf(heading: string): string[] {
  const section = EDITOR_MD.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (!section) throw new Error(`editor.md has no "## ${heading}"`);
  return [...section.matchAll(/^\| `?([a-z_0-9]+)`? \|/gm)].map((m) => m[1]).filter((c) => c !== 'code');
}

/** Every .ts file (not a test) under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

describe('editing socket error codes and close codes (editor.md)', () => {
  it('editor.md "Error codes" lists exactly SOCKET_ERRORS', () => {
    expect(tableOf('Error codes').sort()).toEqual(Object.keys(SOCKET_ERRORS).sort());
  });

  it('editor.md "Close codes" lists exactly the values of CLOSE', () => {
    expect(tableOf('Close codes').map(Number).sort()).toEqual(Object.values(CLOSE).sort());
  });

  it('every error code the daemon writes for the socket as a literal is catalogued', () => {
    // The string literals of every `code: <expression>` / `code = <expression>` in the socket's senders, and the
    // first argument of the helpers that take a code (esignature's fail, signing's refuse).
    const dirs = ['sessions', 'documents', 'citations', 'esignature', 'ws'].map((d) => join(SERVER, d));
    const found = new Map<string, string>();
    for (const file of dirs.flatMap(sources)) {
      const text = readFileSync(file, 'utf8');
      const expressions = [...text.matchAll(/\bcode(?:: | = )([^,;}\n]*)/g)].map((m) => m[1]);
      expressions.push(...[...text.matchAll(/\b(?:fail|refuse)\(('[a-z_]+')/g)].map((m) => m[1]));
      for (const e of expressions) for (const m of e.matchAll(/'([a-z_]+)'/g)) found.set(m[1], file);
    }
    expect(found.size).toBeGreaterThan(15);
    const missing = [...found].filter(([code]) => !Object.hasOwn(SOCKET_ERRORS, code)).map(([code, file]) => `${code} (${file.slice(SERVER.length)})`);
    expect(missing).toEqual([]);
  });

  it('no close code is written as a bare number in the daemon or the editor', () => {
    const codes = Object.values(CLOSE).join('|');
    const bare = new RegExp(`(?:close\\(|code === |closeViews\\()(${codes})\\b`, 'g');
    const roots = [SERVER, new URL('../editor/src/', import.meta.url).pathname];
    const hits = roots.flatMap(sources).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(bare)].map((m) => `${file.split('/daemon/')[1]}: ${m[0]}`));
    expect(hits).toEqual([]);
  });
});
