import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../src/modules/captcha/png.ts';

/** The captcha's PNG encoder: chunk CRCs (zlib.crc32) as PNG readers check them. */
describe('encodePng', () => {
  const chunks = (png: Buffer) => {
    const out: { type: string; crc: number; data: Buffer }[] = [];
    for (let at = 8; at < png.length; ) {
      const len = png.readUInt32BE(at);
      out.push({ type: png.toString('ascii', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + len), crc: png.readUInt32BE(at + 8 + len) });
      at += 12 + len;
    }
    return out;
  };

  it('writes the CRC-32 every reader checks (IEND is always AE426082) and decodes in libvips', async () => {
    const w = 3;
    const h = 2;
    const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 37) & 0xff);
    for (const channels of [3, 4] as const) {
      const png = encodePng(w, h, rgba, channels);
      const cs = chunks(png);
      expect(cs.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
      expect(cs[2]!.crc.toString(16)).toBe('ae426082');
      const img = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect(img.info).toMatchObject({ width: w, height: h, channels });
      expect([...img.data.subarray(0, channels)]).toEqual([...rgba.subarray(0, channels)]);
    }
  });

  it('a corrupted chunk CRC is refused by the reader (so the check above can fail)', async () => {
    const png = Buffer.from(encodePng(2, 2, new Uint8Array(16)));
    png.writeUInt32BE(0, 8 + 8 + 13); // IHDR's CRC
    await expect(sharp(png).raw().toBuffer()).rejects.toThrow();
  });
});
