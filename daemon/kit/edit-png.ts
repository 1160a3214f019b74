import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Turns a LibreOfficeKit tile buffer (BGRA, premultiplied alpha, rows top-down, `width*height*4` bytes; notes:
 * Quirks) into PNG scanlines: straight-alpha RGBA, each row prefixed with filter type 1 (Sub), which suits
 * tiles' long runs of equal pixels.
 * @throws RangeError when the buffer is not `width*height*4` bytes.
 */
export function tileScanlines(bgra: Uint8Array, width: number, height: number): Buffer {
  if (bgra.length !== width * height * 4) throw new RangeError(`tile buffer has ${bgra.length} bytes, expected ${width * height * 4}`);
  const stride = width * 4;
  const rgba = Buffer.allocUnsafe(stride);
  const out = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const src = y * stride;
    for (let i = 0; i < stride; i += 4) {
      const a = bgra[src + i + 3];
      if (a === 255) {
        rgba[i] = bgra[src + i + 2];
        rgba[i + 1] = bgra[src + i + 1];
        rgba[i + 2] = bgra[src + i];
      } else if (a === 0) {
        rgba[i] = 0;
        rgba[i + 1] = 0;
        rgba[i + 2] = 0;
      } else {
        // Un-premultiply, rounding; LibreOffice's premultiplied channels never exceed alpha, clamp anyway.
        rgba[i] = Math.min(255, Math.round((bgra[src + i + 2] * 255) / a));
        rgba[i + 1] = Math.min(255, Math.round((bgra[src + i + 1] * 255) / a));
        rgba[i + 2] = Math.min(255, Math.round((bgra[src + i] * 255) / a));
      }
      rgba[i + 3] = a;
    }
    const dst = y * (stride + 1);
    out[dst] = 1; // Sub: each byte minus the same channel of the pixel to its left
    for (let i = 0; i < 4; i++) out[dst + 1 + i] = rgba[i];
    for (let i = 4; i < stride; i++) out[dst + 1 + i] = (rgba[i] - rgba[i - 4]) & 0xff;
  }
  return out;
}

/**
 * Encodes a LibreOfficeKit tile buffer (BGRA premultiplied, top-down) as an 8-bit RGBA PNG with straight alpha.
 * Deflate runs on the libuv pool, so the kit's JS thread keeps forwarding callbacks meanwhile.
 * @throws RangeError when the buffer size does not match `width` x `height` px.
 */
export async function encodeTilePng(bgra: Uint8Array, width: number, height: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  const idat = await deflateAsync(tileScanlines(bgra, width, height), { level: 6 });
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}
