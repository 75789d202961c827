import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTER_SIZE } from '@cfx/contract/poster.ts';
import { PosterPaths, SettledPaths } from '@cfx/contract/routes.ts';
import { invalidateProjectInfo } from '../src/modules/catalog/project-info.ts';
import { imageId, imageUrl } from '../src/modules/content/artwork.ts';
import { composePoster, fitLines, QR_BOX, qrModules } from '../src/modules/poster/compose-poster.ts';
import { posterFonts } from '../src/modules/poster/fonts.ts';
import { renderPng } from '../src/modules/content/serve-image.ts';
import { API, call, makeApp, register, type TestApp } from './helpers.ts';
import { insertGoods, insertRelease } from './fixtures/market-setup.ts';
import { png, upload } from './upload-helpers.ts';

/**
 * Share posters on a real app and database: a real PNG of POSTER_SIZE rendered by resvg whose QR
 * code, read back from the pixels, is the page's URL (with the sharer's invite code); CJK text drawn
 * with the system's CJK font; unknown and malformed ids answered with the envelope.
 */
let t: TestApp;
let goodsId: number;
let projectId: number;
let inviteCode: string;

beforeAll(async () => {
  t = await makeApp();
  const release = await insertRelease(t.ctx);
  projectId = release.projectId;
  const owner = await register(t);
  inviteCode = (await call(t, '/api/user/v1/getinvitecode', {}, { token: owner.token })).data.inviteCode;
  const ownerId = Number((await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', owner.mobile).executeTakeFirstOrThrow()).id);
  goodsId = await insertGoods(t.ctx, release, ownerId, 7);
  // The release shows generated art; the collectible an uploaded image (read from storage, never fetched).
  const art = await upload(t, SettledPaths.upload, owner.token, { data: png(120, 120), filename: 'art.png' });
  await t.ctx.db.kysely.updateTable('projects').set({ cover: imageUrl(imageId('r', 3, 4242)) }).where('id', '=', projectId).execute();
  await t.ctx.db.kysely.updateTable('goods').set({ image: art.data.url, name: '青花瓷·龙纹罐' }).where('id', '=', goodsId).execute();
  invalidateProjectInfo(t.ctx);
});
afterAll(async () => {
  await t?.close();
});

const get = (query: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `${API}${PosterPaths.poster}?${query}`, headers: { host: 'shop.example.com', ...headers } });

/** A minimal PNG decoder (8-bit RGB / RGBA, non-interlaced — what resvg writes): width, height and pixels. */
function decodePng(buf: Buffer): { width: number; height: number; px: (x: number, y: number) => [number, number, number] } {
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let off = 8;
  let width = 0, height = 0, colorType = 0;
  const idat: Buffer[] = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('ascii', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8);
      colorType = data[9]!;
      expect(data[12]).toBe(0);
    } else if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  expect(bpp).toBeGreaterThan(0);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= bpp ? out[y * stride + i - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= bpp && y > 0 ? out[(y - 1) * stride + i - bpp]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, paeth][f]!) & 0xff;
    }
  }
  return { width, height, px: (x, y) => [out[y * stride + x * bpp]!, out[y * stride + x * bpp + 1]!, out[y * stride + x * bpp + 2]!] };
}

/** The QR modules read back from the poster's pixels (the centre of each module: dark or light). */
function readQr(img: ReturnType<typeof decodePng>, n: number): boolean[][] {
  const m = QR_BOX.size / n;
  return Array.from({ length: n }, (_, y) =>
    Array.from({ length: n }, (_, x) => {
      const [r, g, b] = img.px(Math.floor(QR_BOX.x + (x + 0.5) * m), Math.floor(QR_BOX.y + (y + 0.5) * m));
      return r + g + b < 3 * 128;
    }),
  );
}

describe('share poster', () => {
  it('is a PNG of the poster size whose QR code opens the collectible page with my invite code', async () => {
    const res = await get(`type=goods&id=${goodsId}&inviteCode=${inviteCode.toLowerCase()}&lang=zh`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const img = decodePng(res.rawPayload);
    expect([img.width, img.height]).toEqual([POSTER_SIZE.width, POSTER_SIZE.height]);
    const url = `http://shop.example.com/assets/${goodsId}?inviteCode=${inviteCode}`;
    const expected = qrModules(url).data;
    expect(readQr(img, expected.length)).toEqual(expected);
    // A revalidation with the ETag is a 304.
    expect((await get(`type=goods&id=${goodsId}&inviteCode=${inviteCode}&lang=zh`, { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304);
  });

  it('puts the release page in the QR code, without an invite code when none is given', async () => {
    const res = await get(`type=project&id=${projectId}&lang=en`);
    expect(res.statusCode).toBe(200);
    const img = decodePng(res.rawPayload);
    const expected = qrModules(`http://shop.example.com/projects/detail/${projectId}`).data;
    expect(readQr(img, expected.length)).toEqual(expected);
  });

  it('composes the name, price, creator and site name as text (CJK drawn with the system font)', async () => {
    const svg = (await get(`type=goods&id=${goodsId}&lang=zh&fmt=svg`)).body;
    expect(svg).toContain('青花瓷·龙纹罐');
    expect(svg).toContain('最近成交价');
    expect(svg).toContain('￥99.00');
    expect(svg).toContain('CFX Art');
    expect(svg).toMatch(/创作者 创作者\d+/);
    // The uploaded artwork is embedded from storage as a data URI (no URL is fetched).
    expect(svg).toContain('href="data:image/png;base64,');
    const en = (await get(`type=project&id=${projectId}&lang=en&fmt=svg`)).body;
    expect(en).toContain('Issue price');
    expect(en).toContain('Scan to view this release');
    expect(en).toContain('<svg x="70" y="70"'); // the generated cover, inlined
    expect(posterFonts().cjk).toBe(true); // fonts-noto-cjk is installed by npm test (scripts/test.sh)
  });

  it('draws CJK glyphs with the system font (the name region is inked, not blank)', async () => {
    const base = { art: null, line2: '', creatorLabel: '', creator: '', priceLabel: '', price: '', site: 'CFX Art', scanHint: '', inviteLine: '', url: 'http://x/', fontFamily: posterFonts().family };
    const inked = async (name: string) => {
      const img = decodePng((await renderPng(composePoster({ ...base, name }), POSTER_SIZE.width, posterFonts()))!);
      let dark = 0;
      for (let y = 700; y < 745; y++) for (let x = 70; x < 330; x++) if (img.px(x, y).reduce((a, b) => a + b, 0) < 300) dark++;
      return dark;
    };
    expect(await inked('')).toBe(0);
    expect(await inked('数字藏品')).toBeGreaterThan(1500);
  });

  it('answers unknown ids with 1404 and malformed input with 1001 (the envelope, never a 500)', async () => {
    for (const q of [`type=goods&id=99999999`, `type=project&id=99999999`]) {
      const res = await get(q);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: '1404' });
    }
    for (const q of ['type=goods&id=abc', 'type=goods&id=0', 'type=nope&id=1', 'type=goods', `type=goods&id=${goodsId}&inviteCode=ZZZZZZ`, `type=goods&id=${goodsId}&inviteCode=${'<x>'}`, `type=goods&id=${goodsId}&lang=fr`]) {
      const res = await get(q);
      expect(res.statusCode, q).toBeLessThan(500);
      expect(res.json().status, q).toBe('1001');
    }
    const badHost = await get(`type=goods&id=${goodsId}`, { host: 'evil.com/<script>' });
    expect(badHost.json()).toMatchObject({ status: '1001' });
  });

  it('fits long names into two lines with an ellipsis', () => {
    const lines = fitLines('很长的名字'.repeat(20), 40, 610, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    expect(fitLines('Short', 40, 610, 2)).toEqual(['Short']);
  });
});
