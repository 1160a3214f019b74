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
  productVersion: string;
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
}

/**
 * Builds the capabilities answer. Every `has*` flag states what this build of Ode does today: the editing
 * features (templates, mobile layout, settings iframe, signing) are switched on by the work that delivers them,
 * so that hosts never offer a feature that is not there. `convert-to.available` is per requesting address.
 */
export function buildCapabilities(o: CapabilitiesOptions): Capabilities {
  return {
    'convert-to': { available: o.convertToAvailable, endpoint: '/ode/convert-to' },
    hasTemplateSource: false,
    hasMobileSupport: true,
    hasSettingIframeSupport: true,
    hasProxyPrefix: false,
    hasWASMSupport: false,
    hasWopiAccessCheck: false,
    // Citations from the user's Zotero library (UserPrivateInfo.CitationAPIKey; docs/citations.md).
    hasZoteroSupport: true,
    hasDocumentSigningSupport: false,
    productName: PRODUCT_NAME,
    productVersion: o.productVersion,
    productVersionHash: o.productVersionHash,
    serverId: o.serverId,
  };
}
