import { editorPagePolicy } from '../editor-page/csp.ts';
import { OdeError } from '../errors.ts';
import { readPageForm, scriptJson, sendPage } from '../http/page-form.ts';
import type { SettingsPageConfig } from '../../protocol/settings.ts';
import { parseSettingsBaseUrl } from '../settings/host-settings.ts';
import { browserPath } from './hosting.ts';
import type { Handler } from './context.ts';

export type { SettingsPageConfig };

/**
 * The settings iframe page at discovery's Settings app `urlsrc` (`/browser/<hash>/settings.html?`; spec: "Iframe
 * form-post fields", settings iframe rows): the host POSTs `access_token`, `access_token_ttl`,
 * `wopi_setting_base_url` (required: 400 bad_request naming it when missing or malformed, 403 forbidden_host
 * when its host is not in storage.wopi.hosts), `iframe_type` (`admin` or `user`, default `user`) and `ui_theme`
 * (`light` or `dark`, default `light`). The page carries them to the settings script, with the editor page's CSP
 * whose frame-ancestors add the settings base URL's origin; never cached (it holds a token).
 */
export const settingsPage: Handler = async (req, res, ctx) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const cfg = ctx.config();
  const form = await readPageForm(req, 'settings page', 'access_token and wopi_setting_base_url', cfg.limits.body_idle_secs * 1000);
  const base = parseSettingsBaseUrl(form.get('wopi_setting_base_url'), cfg.storage.wopi.hosts);
  const token = form.get('access_token') ?? '';
  if (!token) throw new OdeError('bad_request', 'No access_token was posted: the host must POST the form field access_token to the settings page.');
  const iframeType = form.get('iframe_type') ?? 'user';
  if (iframeType !== 'admin' && iframeType !== 'user')
    throw new OdeError('bad_request', `iframe_type must be admin or user, not "${iframeType.slice(0, 40)}".`);
  const theme = form.get('ui_theme') ?? 'light';
  if (theme !== 'light' && theme !== 'dark') throw new OdeError('bad_request', `ui_theme must be light or dark, not "${theme.slice(0, 40)}".`);
  const ttl = Number(form.get('access_token_ttl') ?? 0);
  const langTag = form.get('lang') ?? url.searchParams.get('lang') ?? 'en';
  const lang = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(langTag) ? langTag : 'en';
  const prefix = browserPath(ctx);
  const config: SettingsPageConfig = {
    accessToken: token,
    accessTokenTtl: Number.isFinite(ttl) && ttl > 0 ? ttl : undefined,
    baseUrl: base.href,
    iframeType,
    type: iframeType === 'admin' ? 'systemconfig' : 'userconfig',
    theme,
    lang,
    proxy: '/ode/settings',
  };
  const html = `<!doctype html>
<html lang="${lang}" data-theme="${theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ode settings</title>
<link rel="stylesheet" href="${prefix}/settings.css">
</head>
<body>
<main id="ode-settings" aria-busy="true"><p class="ode-settings-loading">Loading the settings…</p></main>
<noscript>Ode's settings page needs JavaScript.</noscript>
<script type="application/json" id="ode-settings-config">${scriptJson(config)}</script>
<script type="module" src="${prefix}/settings.js"></script>
</body>
</html>
`;
  sendPage(req, res, html, editorPagePolicy(cfg.net.content_security_policy, base.origin));
};
