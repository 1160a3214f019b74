/**
 * The settings listing the daemon's settings proxy (`GET /ode/settings`) answers the settings iframe page, checked
 * from the host's settings fetch JSON (spec: host integration, "Settings fetch response"; docs/settings.md). The
 * same shape is what the daemon installs into kits (UserSettings / SharedSettings).
 */

/** One listed file: `stamp` changes when the file does; `file` is the uri's last segment, decoded. */
export interface SettingFile {
  stamp: string;
  uri: string;
  file: string;
}

/** The listing of one settings kind: `kind` (`user` or `shared`) and the files of each setting name, in host order. */
export interface SettingsListing {
  kind: string;
  settings: Record<string, SettingFile[]>;
}

/**
 * What the settings page (`/browser/<hash>/settings.html`, daemon/server/routes/settings-page.ts) writes into its
 * `#ode-settings-config` element for the page script (daemon/editor/src/settings/main.ts).
 */
export interface SettingsPageConfig {
  accessToken: string;
  /** access_token_ttl, ms since the epoch, when given. */
  accessTokenTtl?: number;
  /** The checked wopi_setting_base_url (no query). */
  baseUrl: string;
  /** iframe_type: `admin` lists systemconfig, `user` userconfig. */
  iframeType: 'admin' | 'user';
  type: 'systemconfig' | 'userconfig';
  theme: 'light' | 'dark';
  /** UI language tag (`lang` query or form field), e.g. `fr-FR`. */
  lang: string;
  /** Path of the daemon's settings proxy (routes/settings-proxy.ts). */
  proxy: string;
}
