/**
 * Writing one configuration value back into the YAML file an operator wrote, keeping their comments, key order,
 * quoting and list style (the `yaml` package's Document API), and replacing the file atomically.
 */
import { chmodSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isScalar, isSeq, parseDocument, type Scalar } from 'yaml';

/**
 * `text` with the value at `path` (e.g. `['net', 'post_allow', 'host']`) replaced by `value`; missing maps on
 * the way are created. A list keeps its style (flow or block), its comments, and the nodes (with their
 * comments) of items that stay; a string keeps its quoting style when it can.
 * @throws Error when `text` is not valid YAML (the message names the line).
 */
export function setYamlValue(text: string, path: readonly string[], value: string | readonly string[]): string {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length) throw new Error(`the file is not valid YAML now: ${doc.errors[0].message}`);
  const existing = doc.getIn(path, true);
  if (typeof value === 'string') {
    if (isScalar(existing)) (existing as Scalar).value = value;
    else doc.setIn(path, value);
  } else if (isSeq(existing)) {
    const old = existing.items;
    existing.items = value.map((v) => old.find((n) => isScalar(n) && n.value === v) ?? doc.createNode(v));
  } else {
    // Absent (defaults applied) or another shape: a block list under the key.
    doc.setIn(path, doc.createNode([...value]));
  }
  // No folding of long lines and no padding inside [ ]: lines the edit did not touch keep their layout.
  const out = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  // Guard: what we wrote must read back as the value we meant (quoting fall-backs, anchors, ...).
  const back = parseDocument(out).getIn(path);
  const meant = typeof value === 'string' ? value : JSON.stringify(value);
  const got = typeof value === 'string' ? back : JSON.stringify((back as { toJSON?: () => unknown })?.toJSON?.() ?? back);
  if (got !== meant) throw new Error(`the edited file would read back ${JSON.stringify(got)} at ${path.join('.')}, not the value meant`);
  return out;
}

/**
 * Replaces `file` with `text` atomically: a temp file in the same folder with the same mode, then rename; a
 * symbolic link is followed so the link stays. On failure the file is unchanged and the temp file removed.
 * @throws Error (permissions, disk full) with the path in its message.
 */
export function writeFileAtomic(file: string, text: string): void {
  const target = realpathSync(file);
  const mode = statSync(target).mode & 0o7777;
  const tmp = join(dirname(target), `.${basename(target)}.ode-${process.pid}-${Date.now()}.tmp`);
  try {
    writeFileSync(tmp, text, { mode, flag: 'wx' });
    chmodSync(tmp, mode); // the umask may have narrowed the mode given at creation
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
