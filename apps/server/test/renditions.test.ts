import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { API, makeApp, type TestApp } from './helpers.ts';
import { ByteLru, RENDITION_CACHE_BYTES, renditionCache } from '../src/modules/media/renditions.ts';

/**
 * WebP / AVIF renditions for srcset: generated artwork (`official/image/?fmt=webp|avif&w=`) and public
 * uploads (`/media/uploads/<key>?w=&fmt=`), on a real app with the local storage provider.
 */
let t: TestApp;
const EN = { lang: 'en' };
const BAD = { status: '1001', code: '1001', data: null, message: 'invalid request parameters', msg: 'invalid request parameters' };

const isWebp = (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP';
const isAvif = (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp' && /avi[fs]/.test(b.subarray(8, 12).toString('latin1'));
const dims = async (b: Buffer) => {
  const m = await sharp(b).metadata();
  return { w: m.width, h: m.height, format: m.format };
};

beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t?.close();
});

describe('artwork renditions', () => {
  it('fmt=webp answers a WebP of exactly the asked width, immutable for a year, with an ETag', async () => {
    const r = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=b-4-2757759544&w=480&fmt=webp` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/webp');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(isWebp(r.rawPayload)).toBe(true);
    expect(await dims(r.rawPayload)).toEqual({ w: 480, h: 192, format: 'webp' }); // a banner is 5:2
    const again = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=b-4-2757759544&w=480&fmt=webp`, headers: { 'if-none-match': String(r.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const svg = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=b-4-2757759544&w=480` });
    expect(svg.headers.etag).not.toBe(r.headers.etag);
    // Not a flat picture: the artwork was really drawn.
    const { channels } = await sharp(r.rawPayload).stats();
    expect(channels[0]!.stdev).toBeGreaterThan(5);
  });

  it('fmt=avif answers an AVIF; each width its own size', async () => {
    const r = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=r-3-77&w=240&fmt=avif` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/avif');
    expect(isAvif(r.rawPayload)).toBe(true);
    expect(await dims(r.rawPayload)).toMatchObject({ w: 240, h: 240 });
    const wide = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=r-3-77&w=960&fmt=webp` });
    expect(await dims(wide.rawPayload)).toMatchObject({ w: 960, h: 960 });
  });

  it('a width outside the rendition set, a missing width or an unknown format is 400 1001, never a 500', async () => {
    for (const q of ['w=500&fmt=webp', 'w=abc&fmt=webp', 'fmt=webp', 'w=4800&fmt=avif', 'w=-240&fmt=webp', 'w=240&fmt=gif', 'w=240&fmt=WEBP', 'w=240.5&fmt=webp']) {
      const r = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=r-3-77&${q}`, headers: EN });
      expect(r.statusCode, q).toBe(400);
      expect(r.json(), q).toEqual(BAD);
    }
    const unknown = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=g-99-1&w=240&fmt=webp`, headers: EN });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: '1404', message: 'image not found' });
  });
});

describe('upload renditions', () => {
  const key = 'public/renditions/a1b2c3d4e5f6.png';
  beforeAll(async () => {
    // A 1600×900 photo-like PNG (a gradient with noise) stored through the storage provider.
    const w = 1600, h = 900;
    const px = Buffer.alloc(w * h * 3);
    for (let i = 0; i < w * h; i++) {
      px[i * 3] = (i % w) * 255 / w;
      px[i * 3 + 1] = Math.floor(i / w) * 255 / h;
      px[i * 3 + 2] = (i * 2654435761) >>> 24;
    }
    const png = await sharp(px, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
    await t.ctx.storage.put(key, png, 'image/png');
    await t.ctx.storage.put('public/renditions/f0e1d2c3b4a5.gif', Buffer.from('GIF89a'), 'image/gif');
  });

  it('?w=&fmt=webp resizes a public upload to that width (aspect kept), immutable; the original is unchanged', async () => {
    const r = await t.app.inject({ method: 'GET', url: `/media/uploads/${key}?w=480&fmt=webp` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/webp');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(isWebp(r.rawPayload)).toBe(true);
    expect(await dims(r.rawPayload)).toEqual({ w: 480, h: 270, format: 'webp' });
    const avif = await t.app.inject({ method: 'GET', url: `/media/uploads/${key}?w=240&fmt=avif` });
    expect(isAvif(avif.rawPayload)).toBe(true);
    expect(await dims(avif.rawPayload)).toMatchObject({ w: 240, h: 135 });
    const orig = await t.app.inject({ method: 'GET', url: `/media/uploads/${key}` });
    expect(orig.headers['content-type']).toBe('image/png');
    expect(await dims(orig.rawPayload)).toMatchObject({ w: 1600, h: 900, format: 'png' });
  });

  it('a bad width or format, or a rendition of a non-picture, is the 400 1001 envelope; unknown keys stay 404', async () => {
    for (const q of ['w=333&fmt=webp', 'w=480', 'fmt=webp', 'w=480&fmt=tiff']) {
      const r = await t.app.inject({ method: 'GET', url: `/media/uploads/${key}?${q}`, headers: EN });
      expect(r.statusCode, q).toBe(400);
      expect(r.json(), q).toEqual(BAD);
    }
    const gif = await t.app.inject({ method: 'GET', url: '/media/uploads/public/renditions/f0e1d2c3b4a5.gif?w=240&fmt=webp', headers: EN });
    expect(gif.statusCode).toBe(400);
    expect(gif.json()).toEqual(BAD);
    expect((await t.app.inject({ method: 'GET', url: '/media/uploads/public/renditions/000000000000.png?w=240&fmt=webp' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/media/uploads/private/x/abc.png?w=240&fmt=webp' })).statusCode).toBe(404);
  });
});

describe('the renditions cache is bounded', () => {
  it('ByteLru keeps at most maxBytes, dropping the least recently used first', () => {
    const lru = new ByteLru(1000);
    for (let i = 0; i < 100; i++) lru.set(`k${i}`, Buffer.alloc(90));
    expect(lru.bytes).toBeLessThanOrEqual(1000);
    expect(lru.size).toBe(11);
    expect(lru.get('k0')).toBeUndefined();
    expect(lru.get('k89')).toBeDefined(); // now the most recent
    lru.set('new', Buffer.alloc(90));
    expect(lru.get('k89')).toBeDefined();
    expect(lru.get('k90')).toBeUndefined(); // the oldest untouched one went
    lru.set('huge', Buffer.alloc(2000)); // larger than the bound: not kept, nothing else lost
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.size).toBe(11);
    lru.set('new', Buffer.alloc(10)); // replacing counts the new size only
    expect(lru.bytes).toBe(10 * 90 + 10);
  });

  it('many distinct renditions leave the shared cache within its bound', async () => {
    for (let seed = 0; seed < 12; seed++) {
      const r = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=g-4-${seed}-1-1&w=120&fmt=webp` });
      expect(r.statusCode).toBe(200);
    }
    expect(renditionCache.bytes).toBeGreaterThan(0);
    expect(renditionCache.bytes).toBeLessThanOrEqual(RENDITION_CACHE_BYTES);
    expect(renditionCache.maxBytes).toBe(RENDITION_CACHE_BYTES);
  });
});
