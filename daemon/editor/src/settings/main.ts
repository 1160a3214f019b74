/**
 * The settings iframe page (settings.html, daemon/server/routes/settings-page.ts; docs/settings.md): reads the
 * page's configuration, follows `ui_theme`, lists and edits the settings through the daemon's proxy, and posts
 * `Iframe_Height {ContentHeight}` to the host whenever its content height changes (spec: "Iframe_Height",
 * settings iframe, to remove scrollbars). Imports nothing outside daemon/editor but protocol/.
 */
import { encodePostMessage } from '../../../protocol/postmessage.ts';
import { setLanguage, t } from '../core/i18n.ts';
import type { SettingsPageConfig } from '../../../protocol/settings.ts';
import { SettingsApi } from './api.ts';
import './messages.ts';
import { SettingsPage } from './settings-page.ts';

const config = JSON.parse(document.getElementById('ode-settings-config')?.textContent ?? '{}') as SettingsPageConfig;
setLanguage(config.lang);
document.documentElement.dataset.theme = config.theme === 'dark' ? 'dark' : 'light';
const root = document.getElementById('ode-settings')!;
root.setAttribute('aria-labelledby', 'ode-settings-title');

// Iframe_Height: the body's height (the page and the expiry notice), posted only to the host that embeds us (the
// settings base URL's origin), and only on change.
const hostOrigin = new URL(config.baseUrl).origin;
let lastHeight = -1;
const postHeight = () => {
  const height = Math.ceil(document.body.getBoundingClientRect().height);
  if (height === lastHeight || window.parent === window) return;
  lastHeight = height;
  window.parent.postMessage(encodePostMessage('Iframe_Height', { ContentHeight: `${height}px` }), hostOrigin);
};
new ResizeObserver(postHeight).observe(document.body);

const page = new SettingsPage(root, new SettingsApi(config), config.type, config.iframeType === 'admin');
void page.refresh();

// access_token_ttl (spec: "the user is notified 15 minutes before"): a notice above the page, outside the
// re-rendered <main>, so it stays; its appearance changes the height, which is posted like any other change.
if (config.accessTokenTtl) {
  const ttl = config.accessTokenTtl;
  setTimeout(
    () => {
      const notice = document.createElement('p');
      notice.className = 'ode-settings-expiry';
      notice.setAttribute('role', 'alert');
      notice.textContent = t('settings.expiry', {
        time: new Date(ttl).toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' }),
      });
      root.before(notice);
    },
    Math.max(0, Math.min(ttl - 15 * 60_000 - Date.now(), 2 ** 31 - 1)),
  );
}
