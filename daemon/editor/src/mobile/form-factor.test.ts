import { describe, expect, it } from 'vitest';
import { fitWidthZoom, formFactorOf, isCompact } from './form-factor.ts';

describe('device form factor and compact layout', () => {
  it('says mobile for a finger on a phone, in both orientations', () => {
    expect(formFactorOf({ coarse: true, width: 390, height: 844 })).toBe('mobile');
    expect(formFactorOf({ coarse: true, width: 844, height: 390 })).toBe('mobile');
  });
  it('says tablet for a finger on a larger viewport', () => {
    expect(formFactorOf({ coarse: true, width: 820, height: 1180 })).toBe('tablet');
    expect(formFactorOf({ coarse: true, width: 1180, height: 820 })).toBe('tablet');
  });
  it('says desktop for a mouse, even in a narrow window', () => {
    expect(formFactorOf({ coarse: false, width: 390, height: 700 })).toBe('desktop');
    expect(formFactorOf({ coarse: false, width: 1400, height: 900 })).toBe('desktop');
  });
  it('compacts the chrome under 700 px', () => {
    expect(isCompact(390)).toBe(true);
    expect(isCompact(699)).toBe(true);
    expect(isCompact(820)).toBe(false);
  });
  it('fits a page in the width, between 25 % and 100 %', () => {
    // A Letter page (12240 twips = 816 px at 100 %) in a 390 px phone view with 8 px margins: 374 / 816.
    expect(fitWidthZoom(390, 12240)).toBeCloseTo(374 / 816, 5);
    expect(fitWidthZoom(1600, 12240)).toBe(1);
    expect(fitWidthZoom(100, 12240 * 4)).toBe(0.25);
    expect(fitWidthZoom(390, 0)).toBe(1);
  });
});
