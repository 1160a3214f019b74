import { describe, expect, it } from 'vitest';
import { DEFAULT_FEATURES, featureOf, featurePolicy, gateOf, resolveFeatures } from './feature-policy.ts';

describe('IsUserLocked / IsUserRestricted -> features', () => {
  it('reads true as the default set, false or absent as none, a list by name or alias (case-insensitive)', () => {
    expect(resolveFeatures(true).features).toEqual([...DEFAULT_FEATURES]);
    expect(resolveFeatures(false).features).toEqual([]);
    expect(resolveFeatures(undefined).features).toEqual([]);
    expect(resolveFeatures(['DownloadAs', 'exportpdf', 'PRINT', 'savetocloud', '.uno:InsertAnnotation', 'whatever'])).toEqual({
      features: ['export', 'print', 'saveAs', 'comments'],
      unknown: ['whatever'],
    });
  });
  it('makes a feature both locked and restricted restricted', () => {
    const p = featurePolicy({ IsUserLocked: ['print', 'export'], IsUserRestricted: ['print'] });
    expect(p).toEqual({ locked: ['export'], restricted: ['print'], unknown: [] });
  });
  it('recognises the requests of each feature', () => {
    expect(featureOf({ type: 'download', id: 'a', format: 'pdf', purpose: 'download' })).toBe('export');
    expect(featureOf({ type: 'download', id: 'a', format: 'pdf', purpose: 'print' })).toBe('print');
    expect(featureOf({ type: 'download', id: 'a', format: 'svg', purpose: 'slideshow' })).toBeUndefined();
    expect(featureOf({ type: 'uno', command: '.uno:ExportDirectToPDF' })).toBe('export');
    expect(featureOf({ type: 'uno', command: '.uno:Undo', args: '{"Repair":{"type":"boolean","value":true}}' })).toBe('repair');
    expect(featureOf({ type: 'uno', command: '.uno:Undo' })).toBeUndefined();
    expect(featureOf({ type: 'uno', command: '.uno:AcceptAllTrackedChanges' })).toBe('trackChanges');
    expect(featureOf({ type: 'rename', name: 'x' })).toBe('rename');
    expect(featureOf({ type: 'uno', command: '.uno:Bold' })).toBeUndefined();
  });
  it('refuses only what the policy covers, with the code of its kind', () => {
    const p = featurePolicy({ IsUserLocked: ['comments'], IsUserRestricted: ['saveAs'] });
    expect(gateOf(p, { type: 'saveAs', name: 'a.odt' })).toMatchObject({ code: 'feature_restricted', feature: 'saveAs' });
    expect(gateOf(p, { type: 'uno', command: '.uno:ReplyComment' })).toMatchObject({ code: 'feature_locked', feature: 'comments' });
    expect(gateOf(p, { type: 'download', id: 'a', format: 'pdf', purpose: 'download' })).toBeUndefined();
  });
});
