import { describe, expect, it } from 'vitest';
import { OdeError } from '../errors.ts';
import { parseSettingsBaseUrl, parseSettingsFileId, parseSettingsListing } from './host-settings.ts';

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof OdeError ? e.code : 'not an OdeError';
  }
  return undefined;
};

describe('settings iframe inputs', () => {
  it('wopi_setting_base_url: an http(s) URL ending in /wopi/settings on an allowed host; the query is dropped', () => {
    expect(
      parseSettingsBaseUrl('https://cloud.example.org/index.php/apps/x/wopi/settings/?access_token=t&type=userconfig', ['cloud\\.example\\.org']).href,
    ).toBe('https://cloud.example.org/index.php/apps/x/wopi/settings');
    expect(code(() => parseSettingsBaseUrl(undefined, []))).toBe('bad_request');
    expect(code(() => parseSettingsBaseUrl('not a url', []))).toBe('bad_request');
    expect(code(() => parseSettingsBaseUrl('ftp://127.0.0.1/wopi/settings', []))).toBe('bad_request');
    expect(code(() => parseSettingsBaseUrl('http://127.0.0.1/wopi/files/1', []))).toBe('bad_request');
    expect(code(() => parseSettingsBaseUrl('https://evil.example.com/wopi/settings', ['cloud\\.example\\.org']))).toBe('forbidden_host');
  });

  it('fileId: /settings/{userconfig|systemconfig}/{SETTING_NAME}/{FILE} with a plain file name', () => {
    expect(parseSettingsFileId('/settings/userconfig/wordbook/team.dic')).toEqual({ type: 'userconfig', name: 'wordbook', file: 'team.dic' });
    for (const bad of [
      '/settings/userconfig/wordbook/..',
      '/settings/userconfig/../x.dic',
      '/settings/otherconfig/wordbook/a.dic',
      '/settings/userconfig/wordbook/a/b.dic',
      'settings/userconfig/wordbook/a.dic',
      '/settings/userconfig/word book/a.dic',
      '',
    ]) {
      expect(
        code(() => parseSettingsFileId(bad)),
        bad,
      ).toBe('bad_request');
    }
  });

  it("listing: kind plus arrays of {stamp, uri}; null is empty; file is the uri's last segment, decoded", () => {
    expect(
      parseSettingsListing({ kind: 'user', wordbook: [{ stamp: 's1', uri: 'http://h/wopi/settings/file/u/wordbook/my%20words.dic?x=1' }], xcu: null }),
    ).toEqual({
      kind: 'user',
      settings: { wordbook: [{ stamp: 's1', uri: 'http://h/wopi/settings/file/u/wordbook/my%20words.dic?x=1', file: 'my words.dic' }], xcu: [] },
    });
    expect(code(() => parseSettingsListing([]))).toBe('settings_host_error');
    expect(code(() => parseSettingsListing({ autotext: [] }))).toBe('settings_host_error');
    expect(code(() => parseSettingsListing({ kind: 'user', autotext: [{ stamp: 1, uri: 'u' }] }))).toBe('settings_host_error');
  });
});
