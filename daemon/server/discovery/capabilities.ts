/** The product name in the capabilities (`productName`) and the `product` the update check sends (spec: Update check). */
export const PRODUCT_NAME = 'Ode';

/**
 * The development edition's product name (spec: Update check): `GET /UpdateCheck` with this `product`, or with no
 * `product`, answers the development line's version; any other product gets the release line (docs/updates.md).
 */
export const DEVELOPMENT_PRODUCT_NAME = 'Ode Development Edition';

/** What the capabilities answer depends on. */
export interface CapabilitiesOptions {
  /** Whether the requesting address may use convert-to (net.post_allow.host). */
  convertToAvailable: boolean;
  /** The Collabora Online version advertised (hosting.collabora_version), e.g. `24.04.5.2`. */
  productVersion: string;
  /** Ode's own version (package.json), e.g. `0.1.0`. */
  odeVersion: string;
  productVersionHash: string;
  serverId: string;
}

/** The capabilities JSON (spec: host integration, "Capabilities response"), plus the fields Collabora adds. */
export interface Capabilities {
  'convert-to': { available: boolean; endpoint: string };
  hasTemplateSource: boolean;
  hasMobileSupport: boolean;
  hasSettingIframeSupport: boolean;
  hasProxyPrefix: boolean;
  hasWASMSupport: boolean;
  hasWopiAccessCheck: boolean;
  hasZoteroSupport: boolean;
  hasDocumentSigningSupport: boolean;
  productName: string;
  productVersion: string;
  productVersionHash: string;
  serverId: string;
  /** Ode's own version (Collabora's capabilities have no such field; hosts ignore it). */
  odeVersion: string;
}

/**
 * Builds the capabilities answer (Collabora Online's fields). Every `has*` flag states what this build of Ode does,
 * so that hosts offer exactly what is there (docs/hosts.md, "Capabilities and version"):
 * - hasTemplateSource: CheckFileInfo TemplateSource creates the document from a template (document-loading.ts);
 * - hasMobileSupport: the editor's phone and tablet layout; hasSettingIframeSupport: the Settings app of discovery;
 * - hasWopiAccessCheck: POST /hosting/wopiAccessCheck (routes/wopi-access-check.ts);
 * - hasZoteroSupport: citations from the user's Zotero library; hasDocumentSigningSupport: signing with
 *   UserPrivateInfo.SignatureCert/Key/Ca;
 * - hasProxyPrefix (Collabora's proxy.php mode) and hasWASMSupport (its offline WASM build): Ode has neither.
 * `productVersion` is the Collabora version whose feature level Ode implements (hosting.collabora_version), since
 * hosts gate features on it; `productName` is Ode and `odeVersion` Ode's own version. `convert-to.available` is per
 * requesting address.
 */
export function buildCapabilities(o: CapabilitiesOptions): Capabilities {
  return {
    'convert-to': { available: o.convertToAvailable, endpoint: '/ode/convert-to' },
    hasTemplateSource: true,
    hasMobileSupport: true,
    hasSettingIframeSupport: true,
    hasProxyPrefix: false,
    hasWASMSupport: false,
    hasWopiAccessCheck: true,
    hasZoteroSupport: true,
    hasDocumentSigningSupport: true,
    productName: PRODUCT_NAME,
    productVersion: o.productVersion,
    productVersionHash: o.productVersionHash,
    serverId: o.serverId,
    odeVersion: o.odeVersion,
  };
}
