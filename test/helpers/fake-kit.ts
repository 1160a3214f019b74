import { strFromU8, unzipSync } from 'fflate';
import { FAKE_KIT_TEXT_PART } from '../../daemon/protocol/kit.ts';

/**
 * What was typed into a document a fake kit saved (kit.md, "The fake kit"): the text of its FAKE_KIT_TEXT_PART, read
 * from the stored package with fflate (not with the fake's own reader); undefined when the file is not a package
 * with that part (e.g. a file the host wrote itself).
 */
export function fakeKitText(bytes: Uint8Array): string | undefined {
  try {
    const part = unzipSync(new Uint8Array(bytes), { filter: (f) => f.name === FAKE_KIT_TEXT_PART })[FAKE_KIT_TEXT_PART];
    return part ? strFromU8(part) : undefined;
  } catch {
    return undefined;
  }
}
