/**
 * Fixture: LibreOffice's verdict on a signed file, as a fresh LOK load sees it. Args: <file> [<ca.der>...].
 * Loads <file> (copied into the work dir), reads getSignatureState, then trusts each CA (addCertificate) and
 * reads it again. Result: { before, added, after } (SignatureState numbers: 1 OK, 4 NOTVALIDATED, 5 PARTIAL_OK,
 * 6 NOTVALIDATED_PARTIAL_OK ...).
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Office } from '../index.ts';
import { copyToWork, emit, fixtureArgs } from './fixture-env.ts';

const { workDir, profileUrl, args } = fixtureArgs();
const [file, ...cas] = args;
if (!file) throw new Error('usage: signature-state <file> [<ca.der>...]');
const office = Office.init({ profileUrl });
const doc = await office.documentLoad(copyToWork(workDir, file, `signed${extname(file)}`), { options: 'Language=en-US,Batch=true' });
const before = doc.getSignatureState();
const added = cas.map((ca) => doc.addCertificate(readFileSync(ca)));
const after = doc.getSignatureState();
doc.destroy();
emit({ before, added, after });
office.exitProcess(0);
