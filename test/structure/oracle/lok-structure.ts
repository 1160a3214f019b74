/**
 * The reference of issue 20, run as a child process: LibreOfficeKit's own structure extraction
 * (`lok::Office::extractDocumentStructureRequest`, LibreOffice 25.2, through the addon), for `contentcontrol` and
 * `charts`, over the documents named on the command line. Arguments: `<workDir> <profileDir> <file>...` (absolute
 * paths); prints one result line (daemon/native/test-fixtures/fixture-env.ts) mapping each file to the two raw
 * answers, or to the error LibreOffice gave.
 */
import { copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Office } from '../../../daemon/native/index.ts';
import { emit, errorInfo, fixtureArgs } from '../../../daemon/native/test-fixtures/fixture-env.ts';

const { workDir, profileUrl, args } = fixtureArgs();
const office = Office.init({ profileUrl });
const out: Record<string, { contentcontrol?: string; charts?: string; error?: string }> = {};
for (const [i, file] of args.entries()) {
  // a copy in the work folder: LibreOffice writes lock files next to what it loads
  const copy = join(workDir, `${i}-${basename(file)}`);
  copyFileSync(file, copy);
  const url = pathToFileURL(copy).href;
  try {
    out[file] = {
      contentcontrol: await office.extractDocumentStructureRequest(url, 'contentcontrol'),
      charts: await office.extractDocumentStructureRequest(url, 'charts'),
    };
  } catch (e) {
    out[file] = { error: errorInfo(e).message };
  }
}
emit(out);
process.exit(0);
