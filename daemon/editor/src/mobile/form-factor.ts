/**
 * The device form factor the load message carries (LibreOffice renders for it: DeviceFormFactor) and the layout
 * decisions of small screens (pure: no DOM, so tests can feed it any device).
 */
export type FormFactor = 'mobile' | 'tablet' | 'desktop';

/** What the browser says about the device: its pointer and the viewport's size in CSS px. */
export interface DeviceTraits {
  /** The primary pointer is coarse (a finger): `(pointer: coarse)`, or touch points and no hover. */
  coarse: boolean;
  width: number;
  height: number;
}

/** A touch viewport whose shorter side is under this (CSS px) is a phone's, in either orientation. */
export const PHONE_MAX_SIDE = 600;
/** Narrower than this (CSS px), the chrome is compact: menus in a row of their own, one-row toolbar, slides below. */
export const COMPACT_MAX_WIDTH = 700;

/** `mobile` for a finger on a phone-sized viewport, `tablet` for a finger on a larger one, else `desktop`. */
export function formFactorOf(d: DeviceTraits): FormFactor {
  if (!d.coarse) return 'desktop';
  return Math.min(d.width, d.height) < PHONE_MAX_SIDE ? 'mobile' : 'tablet';
}

/** Whether the chrome is compact at this viewport width. */
export function isCompact(width: number): boolean {
  return width < COMPACT_MAX_WIDTH;
}

/**
 * The zoom that fits a page `docWidth` twips wide in `viewWidth` CSS px with `margin` px each side (15 twips a
 * px at 100 %), between 25 % and 100 % (a touch device never starts zoomed in; pinch for more).
 */
export function fitWidthZoom(viewWidth: number, docWidth: number, margin = 8): number {
  if (docWidth <= 0 || viewWidth <= 0) return 1;
  return Math.max(0.25, Math.min(1, ((viewWidth - 2 * margin) * 15) / docWidth));
}
