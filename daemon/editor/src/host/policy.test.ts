import { describe, expect, it } from 'vitest';
import { computePolicy, type PolicyInput } from './policy.ts';

const IDS = [
  'file.save',
  'file.saveAs',
  'file.rename',
  'file.print',
  'file.repair',
  'file.downloadAs.pdf',
  'file.downloadAs.docx',
  'edit.copy',
  'edit.cut',
  'edit.paste',
  'insert.image',
  'insert.comment',
  'insert.remoteImage',
  'format.bold',
  'file.close',
  'file.versions',
  'file.closeForEveryone',
  'help.debug',
  'view.zoomIn',
];
const input = (fileInfo: Record<string, unknown>, more: Partial<PolicyInput> = {}): PolicyInput => ({
  fileInfo,
  settings: {},
  readonly: false,
  commentsOnly: false,
  ids: IDS,
  ...more,
});

describe('CheckFileInfo and iframe parameters -> hidden and disabled commands', () => {
  it('shows Save As only when UserCanNotWriteRelative is false, rename only with SupportsRename and UserCanRename', () => {
    expect(computePolicy(input({})).hidden).toEqual(
      new Set([
        'file.saveAs',
        'file.rename',
        'file.closeForEveryone',
        'insert.remoteImage',
        'insert.remoteLink',
        'insert.remoteFile',
        'insert.aiContent',
        'file.close',
        'file.versions',
        'help.debug',
      ]),
    );
    const open = computePolicy(input({ UserCanNotWriteRelative: false, SupportsRename: true, UserCanRename: true }));
    expect(open.hidden.has('file.saveAs')).toBe(false);
    expect(open.hidden.has('file.rename')).toBe(false);
    expect(computePolicy(input({ SupportsRename: false, UserCanRename: true })).hidden.has('file.rename')).toBe(true);
  });
  it('Hide* hides, Disable* hides and disables, DisableCopy disables copy and cut only', () => {
    const p = computePolicy(
      input({ HidePrintOption: true, HideSaveOption: true, DisableExport: true, HideRepairOption: true, DisableCopy: true, DisableInsertLocalImage: true }),
    );
    for (const id of ['file.print', 'file.save', 'file.downloadAs.pdf', 'file.downloadAs.docx', 'file.repair', 'insert.image'])
      expect(p.hidden.has(id), id).toBe(true);
    expect([...p.disabled].sort()).toEqual(['edit.copy', 'edit.cut', 'file.downloadAs.docx', 'file.downloadAs.pdf']);
    const print = computePolicy(input({ DisablePrint: true }));
    expect(print.hidden.has('file.print') && print.disabled.has('file.print')).toBe(true);
    expect(computePolicy(input({ HideExportOption: true })).disabled.size).toBe(0);
  });
  it('owner termination only for the owner; guests get no rename or Save As', () => {
    expect(computePolicy(input({ EnableOwnerTermination: true, OwnerId: 'a', UserId: 'a' })).hidden.has('file.closeForEveryone')).toBe(false);
    expect(computePolicy(input({ EnableOwnerTermination: true, OwnerId: 'a', UserId: 'b' })).hidden.has('file.closeForEveryone')).toBe(true);
    const guest = computePolicy(input({ IsAnonymousUser: true, UserCanNotWriteRelative: false, SupportsRename: true, UserCanRename: true }));
    expect(guest.hidden.has('file.rename') && guest.hidden.has('file.saveAs')).toBe(true);
  });
  it('iframe parameters: closebutton, revisionhistory, debug, permission=readonly (comments and Save stay for view_comment)', () => {
    const p = computePolicy(input({ EnableInsertRemoteImage: true }, { settings: { closebutton: 'true', revisionhistory: 'true', debug: 'true' } }));
    for (const id of ['file.close', 'file.versions', 'help.debug', 'insert.remoteImage']) expect(p.hidden.has(id), id).toBe(false);
    const ro = computePolicy(input({}, { settings: { permission: 'readonly' } }));
    for (const id of ['file.save', 'edit.paste', 'edit.cut', 'format.bold', 'insert.image', 'insert.comment']) expect(ro.hidden.has(id), id).toBe(true);
    expect(ro.hidden.has('edit.copy') || ro.hidden.has('view.zoomIn')).toBe(false);
    const commenter = computePolicy(input({}, { readonly: true, commentsOnly: true }));
    expect(commenter.hidden.has('insert.comment') || commenter.hidden.has('file.save')).toBe(false);
    expect(commenter.hidden.has('format.bold')).toBe(true);
    expect(computePolicy(input({ HideSaveOption: true }, { readonly: true, commentsOnly: true })).hidden.has('file.save')).toBe(true);
  });
});

describe('IsUserLocked / IsUserRestricted (status.features) -> hidden and locked commands', () => {
  const features = {
    restricted: [{ feature: 'print', commands: ['file.print'] }],
    locked: [
      { feature: 'export', commands: ['file.downloadAs.*'] },
      { feature: 'signing', commands: ['file.sign*'] },
    ],
  };
  it('hides restricted commands, locks every registered id of a locked pattern and names its feature', () => {
    const p = computePolicy(input({}, { features }));
    expect(p.hidden.has('file.print')).toBe(true);
    expect([...p.locked.entries()].sort()).toEqual([
      ['file.downloadAs.docx', 'export'],
      ['file.downloadAs.pdf', 'export'],
    ]);
    expect(p.hidden.has('file.downloadAs.pdf')).toBe(false);
  });
  it('locks nothing and hides nothing more without features', () => {
    const p = computePolicy(input({ UserCanNotWriteRelative: false }));
    expect(p.locked.size).toBe(0);
    expect(p.hidden.has('file.print')).toBe(false);
  });
});
