import { describe, expect, it } from 'vitest';
import { compareVersions, isNewer, parseVersion } from './versions.ts';

describe('version comparison of the update check', () => {
  it('compares dotted numbers as numbers, part by part', () => {
    expect(isNewer('24.04.5.2', '0.1.0')).toBe(true);
    expect(isNewer('0.1.0', '24.04.5.2')).toBe(false);
    expect(isNewer('0.10.0', '0.9.9')).toBe(true);
    expect(isNewer('0.1.0', '0.1.0')).toBe(false);
    expect(compareVersions('1.2', '1.2.0')).toBe(0);
    expect(compareVersions('1.2.0.1', '1.2')).toBeGreaterThan(0);
    expect(compareVersions('24.04.5.2-1', '24.4.5.2')).toBe(0);
  });
  it('refuses what is not a version, naming it', () => {
    expect(parseVersion('latest')).toBeUndefined();
    expect(() => compareVersions('latest', '0.1.0')).toThrow(/"latest" is not a version/);
  });
});
