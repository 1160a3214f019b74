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
