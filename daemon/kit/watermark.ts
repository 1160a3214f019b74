/**
 * WatermarkText (CheckFileInfo; spec: "rendered as a watermark-like text on each tile"): the kit paints the text
 * into every tile of a view that has one, before the tile leaves the kit, so the browser cannot take it off.
 * LibreOffice renders the text (LOK renderFontOrientation: black, its coverage in alpha) once per tile size; each
 * tile gets it blended over its pixels, along the diagonal and semi-transparent grey, as Collabora's kit does.
 */

/** What renders the text: LokDocument.renderFont, bound to the document (width/height: the box to fit it in, px). */
export type FontRenderer = (
  fontName: string,
  text: string,
  width: number,
  height: number,
  orientation: number,
) => { width: number; height: number; data: Uint8Array };

/** The font of the watermark; LibreOffice falls back to its default font when it is not installed. */
export const WATERMARK_FONT = 'Liberation Sans';
/** The text's colour (RGB) and its opacity where the text fully covers a pixel. */
const COLOR = [0x80, 0x80, 0x80] as const;
const OPACITY = 0.35;

/** One view's watermark: its text and its rendering per tile size (an alpha mask, one byte a pixel). */
export class Watermark {
  readonly text: string;
  readonly #render: FontRenderer;
  readonly #masks = new Map<string, Uint8Array>();

  /** @param text the WatermarkText, non-empty. */
  constructor(text: string, render: FontRenderer) {
    if (!text) throw new RangeError('a watermark needs a text');
    this.text = text;
    this.#render = render;
  }

  /**
   * The alpha mask (`width * height` bytes, 0..255 already scaled by the opacity) of the text laid along the tile's
   * diagonal (bottom-left to top-right), about four fifths of its length; made on first use for a tile size, then
   * reused. LibreOffice renders the text level (its rotated rendering clips long texts), fitted to a box as long as
   * the diagonal; the kit turns it (bilinear sampling).
   */
  mask(width: number, height: number): Uint8Array {
    const key = `${width}x${height}`;
    const hit = this.#masks.get(key);
    if (hit) return hit;
    const diagonal = Math.hypot(width, height);
    const boxW = Math.max(8, Math.round(diagonal * 1.2)); // LibreOffice fits the text into two thirds of the box
    const r = this.#render(WATERMARK_FONT, this.text, boxW, Math.max(4, Math.round(boxW / 4)), 0);
    const alpha = (x: number, y: number) => (x < 0 || y < 0 || x >= r.width || y >= r.height ? 0 : r.data[(y * r.width + x) * 4 + 3]);
    // The text's bounding box in the rendering: its centre goes to the tile's centre.
    let x0 = r.width,
      x1 = -1,
      y0 = r.height,
      y1 = -1;
    for (let y = 0; y < r.height; y++) {
      for (let x = 0; x < r.width; x++) {
        if (alpha(x, y) === 0) continue;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
    const mask = new Uint8Array(width * height);
    if (x1 >= 0) {
      const scx = (x0 + x1) / 2,
        scy = (y0 + y1) / 2,
        cx = width / 2,
        cy = height / 2;
      const angle = Math.atan2(height, width);
      const ux = Math.cos(angle),
        uy = -Math.sin(angle); // the baseline's direction on the tile (up and right)
      const vx = -uy,
        vy = ux; // "down" in the text, turned with it
      for (let ty = 0; ty < height; ty++) {
        for (let tx = 0; tx < width; tx++) {
          const dx = tx + 0.5 - cx,
            dy = ty + 0.5 - cy;
          const sx = dx * ux + dy * uy + scx - 0.5,
            sy = dx * vx + dy * vy + scy - 0.5;
          const ix = Math.floor(sx),
            iy = Math.floor(sy);
          if (ix < x0 - 1 || ix > x1 || iy < y0 - 1 || iy > y1) continue;
          const fx = sx - ix,
            fy = sy - iy;
          const a = (alpha(ix, iy) * (1 - fx) + alpha(ix + 1, iy) * fx) * (1 - fy) + (alpha(ix, iy + 1) * (1 - fx) + alpha(ix + 1, iy + 1) * fx) * fy;
          mask[ty * width + tx] = Math.round(a * OPACITY);
        }
      }
    }
    if (this.#masks.size > 16) this.#masks.clear(); // a handful of tile sizes per view; never grows without bound
    this.#masks.set(key, mask);
    return mask;
  }

  /**
   * Blends the watermark over a LibreOfficeKit tile buffer in place (BGRA, premultiplied alpha, rows top-down,
   * `width*height*4` bytes): grey text "over" the tile, so a white page turns light grey under the text and a
   * transparent area gets semi-transparent grey.
   * @throws RangeError when the buffer is not `width*height*4` bytes.
   */
  apply(bgra: Uint8Array, width: number, height: number): void {
    if (bgra.length !== width * height * 4) throw new RangeError(`tile buffer has ${bgra.length} bytes, expected ${width * height * 4}`);
    const mask = this.mask(width, height);
    for (let p = 0, i = 0; p < mask.length; p++, i += 4) {
      const a = mask[p];
      if (a === 0) continue;
      const keep = 255 - a;
      // Premultiplied "over": out = src * a + dst * (1 - a), channel by channel (B, G, R, A).
      bgra[i] = Math.round((COLOR[2] * a + bgra[i] * keep) / 255);
      bgra[i + 1] = Math.round((COLOR[1] * a + bgra[i + 1] * keep) / 255);
      bgra[i + 2] = Math.round((COLOR[0] * a + bgra[i + 2] * keep) / 255);
      bgra[i + 3] = Math.round((255 * a + bgra[i + 3] * keep) / 255);
    }
  }
}
