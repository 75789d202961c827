import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatorPaths, DevPaths, SettledPaths } from '@cfx/contract/routes.ts';
import { sniff } from '../src/modules/uploads/sniff.ts';
import { parseRange } from '../src/modules/uploads/serve-upload.ts';
import { rangeHeader } from '../src/providers/storage/s3.ts';
import { resolveRange } from '../src/providers/storage/types.ts';
import { call, makeApp, register, type TestApp } from './helpers.ts';
import { png, upload } from './upload-helpers.ts';

/**
 * Artwork media of video and 3D collectibles on a real app and database with the local storage
 * provider: MP4 / WebM / GLB judged by their bytes (minimal real files built here), the media size
 * cap, the `?kind=media` policy of the image upload call, and HTTP Range on /media/uploads/<key>
 * (206, suffix and open ranges, 416, If-Range, several ranges, content types). S3: the Range header
 * only (the S3 adapter runs against s3rver in storage-s3.test.ts).
 */
let t: TestApp;
const EN = { lang: 'en' };
const KB = 1024;

beforeAll(async () => {
  t = await makeApp({}, { UPLOAD_MEDIA_MAX_MB: '0.5' });
});
afterAll(async () => {
  await t?.close();
});

const box = (type: string, payload: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
};
/** An ISO BMFF file: `ftyp` (major brand, minor version, compatible brands) and an `mdat` of `n` bytes. */
function mp4(n = 64 * KB, major = 'isom', compatible = ['isom', 'avc1']): Buffer {
  const ftyp = Buffer.concat([Buffer.from(major, 'latin1'), Buffer.from([0, 0, 2, 0]), ...compatible.map((b) => Buffer.from(b, 'latin1'))]);
  return Buffer.concat([box('ftyp', ftyp), box('mdat', crypto.randomBytes(n))]);
}
/** An EBML element with a one-byte size. */
const ebml = (id: number[], data: Buffer) => Buffer.concat([Buffer.from(id), Buffer.from([0x80 | data.length]), data]);
/** A WebM (or another Matroska DocType): the EBML header, then a Segment of unknown size with `n` bytes. */
function webm(n = 32 * KB, docType = 'webm'): Buffer {
  const header = Buffer.concat([ebml([0x42, 0x86], Buffer.from([1])), ebml([0x42, 0xf7], Buffer.from([1])), ebml([0x42, 0x82], Buffer.from(docType, 'latin1')), ebml([0x42, 0x87], Buffer.from([4]))]);
  const segment = Buffer.concat([Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), crypto.randomBytes(n)]);
  return Buffer.concat([ebml([0x1a, 0x45, 0xdf, 0xa3], header), segment]);
}
/** A binary glTF 2.0: header, a JSON chunk (space-padded) and a BIN chunk of `n` bytes. */
function glb(n = 16 * KB, version = 2): Buffer {
  let json = Buffer.from(JSON.stringify({ asset: { version: '2.0' }, buffers: [{ byteLength: n }] }));
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const chunk = (type: string, data: Buffer) => {
    const h = Buffer.alloc(8);
    h.writeUInt32LE(data.length, 0);
    h.write(type, 4, 'latin1');
    return Buffer.concat([h, data]);
  };
  const body = Buffer.concat([chunk('JSON', json), chunk('BIN\0', crypto.randomBytes(n))]);
  const header = Buffer.alloc(12);
  header.write('glTF', 0, 'latin1');
  header.writeUInt32LE(version, 4);
  header.writeUInt32LE(12 + body.length, 8);
  return Buffer.concat([header, body]);
}

const MEDIA = `${SettledPaths.upload}?kind=media`;
const KEY_RE = /^public\/media\/\d{6}\/[0-9a-f]{32}\.(mp4|webm|glb)$/;

describe('sniffing artwork media by magic bytes', () => {
  it('knows MP4, WebM and binary glTF 2.0', () => {
    expect(sniff(mp4())).toEqual({ type: 'video/mp4' });
    expect(sniff(mp4(1024, 'mp42', ['mp42', 'mp41']))).toEqual({ type: 'video/mp4' });
    // a brand not in the list as major, an MP4 one among the compatible brands
    expect(sniff(mp4(1024, 'XAVC', ['XAVC', 'mp42']))).toEqual({ type: 'video/mp4' });
    expect(sniff(webm())).toEqual({ type: 'video/webm' });
    expect(sniff(glb())).toEqual({ type: 'model/gltf-binary' });
  });
  it('refuses look-alikes and broken files', () => {
    // HEIC / AVIF stills and QuickTime are ISO BMFF too, but not MP4 video
    expect(sniff(mp4(1024, 'heic', ['mif1', 'heic']))).toBeUndefined();
    expect(sniff(mp4(1024, 'avif', ['avif', 'mif1', 'miaf']))).toBeUndefined();
    expect(sniff(mp4(1024, 'qt  ', ['qt  ']))).toBeUndefined();
    // Matroska that is not WebM, and an EBML header cut short
    expect(sniff(webm(1024, 'matroska'))).toBeUndefined();
    expect(sniff(webm().subarray(0, 20))).toBeUndefined();
    // glTF 1, a GLB cut short (declared length ≠ file size), one with bytes appended
    expect(sniff(glb(1024, 1))).toBeUndefined();
    const model = glb();
    expect(sniff(model.subarray(0, model.length - 100))).toBeUndefined();
    expect(sniff(Buffer.concat([model, Buffer.alloc(4)]))).toBeUndefined();
    expect(sniff(Buffer.from('glTF'))).toBeUndefined();
  });
});

describe('media upload (/official/settled/oss/upload?kind=media)', () => {
  it('stores MP4, WebM and GLB under public/media/ keys by their bytes, whatever the name or claimed type', async () => {
    const u = await register(t);
    for (const [data, type, ext] of [
      [mp4(), 'video/mp4', 'mp4'],
      [webm(), 'video/webm', 'webm'],
      [glb(), 'model/gltf-binary', 'glb'],
    ] as const) {
      const r = await upload(t, MEDIA, u.token, { data, filename: 'artwork.bin', contentType: 'application/octet-stream' });
      expect(r).toMatchObject({ http: 200, status: '000000', code: 200 });
      expect(r.data).toMatchObject({ size: data.length, type });
      expect(r.data.key).toMatch(KEY_RE);
      expect(r.data.key.endsWith(`.${ext}`)).toBe(true);
      const row = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('key', '=', r.data.key).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ kind: 'media', content_type: type });
      const got = await t.app.inject({ method: 'GET', url: r.data.url });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(type);
      expect(got.headers['accept-ranges']).toBe('bytes');
      expect(got.rawPayload.equals(data)).toBe(true);
    }
  });

  it('refuses a PNG named .mp4, a truncated GLB, and media sent without kind=media', async () => {
    const u = await register(t);
    const refusedMedia = { http: 200, status: '1030', message: 'only MP4 and WebM videos or GLB 3D models are accepted' };
    expect(await upload(t, MEDIA, u.token, { data: png(64, 64), filename: 'clip.mp4', contentType: 'video/mp4' }, EN)).toMatchObject(refusedMedia);
    const model = glb();
    expect(await upload(t, MEDIA, u.token, { data: model.subarray(0, model.length - 1), filename: 'model.glb', contentType: 'model/gltf-binary' }, EN)).toMatchObject(refusedMedia);
    expect(await upload(t, MEDIA, u.token, { data: webm(1024, 'matroska'), filename: 'a.webm' }, EN)).toMatchObject(refusedMedia);
    // the image call without kind (or kind=image) stays images only
    expect(await upload(t, SettledPaths.upload, u.token, { data: mp4(), filename: 'clip.mp4' }, EN)).toMatchObject({ status: '1030', message: 'only JPG, PNG, WebP and GIF images are accepted' });
    expect(await upload(t, `${SettledPaths.upload}?kind=image`, u.token, { data: glb(), filename: 'm.glb' }, EN)).toMatchObject({ status: '1030', message: 'only JPG, PNG, WebP and GIF images are accepted' });
    expect(await upload(t, `${SettledPaths.upload}?kind=video`, u.token, { data: mp4(), filename: 'clip.mp4' }, EN)).toMatchObject({ http: 400, status: '1001', message: 'invalid request parameters' });
    expect(await upload(t, MEDIA, undefined, { data: mp4(), filename: 'clip.mp4' }, EN)).toMatchObject({ status: '1100' });
    expect(await t.ctx.db.kysely.selectFrom('uploads').select('id').where('kind', '=', 'media').where('original_name', 'in', ['clip.mp4', 'model.glb', 'a.webm', 'm.glb']).execute()).toEqual([]);
  });

  it('caps the size at UPLOAD_MEDIA_MAX_MB (0.5 MB here), streamed or declared', async () => {
    const u = await register(t);
    const tooLarge = { status: '1030', message: 'the file is too large (at most 0.5 MB)' };
    expect(await upload(t, MEDIA, u.token, { data: mp4(512 * KB), filename: 'over.mp4' }, EN)).toMatchObject(tooLarge);
    expect(await upload(t, MEDIA, u.token, { data: mp4(2048 * KB), filename: 'big.mp4' }, EN)).toMatchObject(tooLarge);
    expect((await upload(t, MEDIA, u.token, { data: mp4(500 * KB), filename: 'fits.mp4' }, EN)).status).toBe('000000');
  });
});

describe('the creators\' upload call with ?kind=media', () => {
  it('takes a creator\'s video or model (width and height 0); not a non-creator\'s', async () => {
    const u = await register(t);
    expect((await call(t, DevPaths.makeCreator, {}, { token: u.token })).status).toBe('000000');
    const r = await upload(t, `${CreatorPaths.upload}?kind=media`, u.token, { data: glb(), filename: 'model.glb' });
    expect(r).toMatchObject({ status: '000000' });
    expect(r.data).toMatchObject({ type: 'model/gltf-binary', width: 0, height: 0 });
    expect(r.data.key).toMatch(KEY_RE);
    expect(await upload(t, `${CreatorPaths.upload}?kind=media`, u.token, { data: png(64, 64), filename: 'x.mp4' }, EN)).toMatchObject({ status: '1030', message: 'only MP4 and WebM videos or GLB 3D models are accepted' });
    // images as before without kind
    expect(await upload(t, CreatorPaths.upload, u.token, { data: png(64, 48), filename: 'a.png' })).toMatchObject({ status: '000000', data: { width: 64, height: 48 } });
    const stranger = await register(t);
    expect(await upload(t, `${CreatorPaths.upload}?kind=media`, stranger.token, { data: mp4(), filename: 'clip.mp4' })).toMatchObject({ status: '1012' });
  });
});

describe('HTTP Range on /media/uploads/<key> (local storage)', () => {
  let url = '';
  let bytes: Buffer = Buffer.alloc(0);
  beforeAll(async () => {
    const u = await register(t);
    bytes = mp4(100 * KB);
    const r = await upload(t, MEDIA, u.token, { data: bytes, filename: 'clip.mp4' });
    url = r.data.url;
  });
  const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

  it('answers one range with 206, Content-Range and only those bytes', async () => {
    const size = bytes.length;
    const first = await get({ range: 'bytes=0-1023' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-1023/${size}`);
    expect(first.headers['content-length']).toBe('1024');
    expect(first.headers['content-type']).toBe('video/mp4');
    expect(first.headers['accept-ranges']).toBe('bytes');
    expect(first.rawPayload.equals(bytes.subarray(0, 1024))).toBe(true);

    const open = await get({ range: 'bytes=5000-' });
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe(`bytes 5000-${size - 1}/${size}`);
    expect(open.rawPayload.equals(bytes.subarray(5000))).toBe(true);

    const suffix = await get({ range: 'bytes=-500' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(suffix.rawPayload.equals(bytes.subarray(size - 500))).toBe(true);

    // an end past the file is cut to its last byte; a suffix longer than the file is the whole file
    const past = await get({ range: `bytes=${size - 10}-${size + 1000}` });
    expect(past.statusCode).toBe(206);
    expect(past.headers['content-range']).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    const all = await get({ range: `bytes=-${size * 2}` });
    expect(all.headers['content-range']).toBe(`bytes 0-${size - 1}/${size}`);
    expect(all.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers 416 with bytes */size for ranges past the end', async () => {
    for (const range of [`bytes=${bytes.length}-`, `bytes=${bytes.length + 5}-${bytes.length + 9}`, 'bytes=-0']) {
      const r = await get({ range });
      expect(r.statusCode, range).toBe(416);
      expect(r.headers['content-range']).toBe(`bytes */${bytes.length}`);
    }
  });

  it('serves the whole file for several ranges, malformed ranges and a stale If-Range; 304 for its ETag', async () => {
    for (const range of ['bytes=0-1,5-6', 'bytes=9-3', 'items=0-1', 'bytes=-']) {
      const r = await get({ range });
      expect(r.statusCode, range).toBe(200);
      expect(r.rawPayload.equals(bytes)).toBe(true);
    }
    const whole = await get({});
    const etag = whole.headers.etag as string;
    expect(etag).toMatch(/^"o-[0-9a-z]+"$/);
    expect((await get({ range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    const stale = await get({ range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(bytes.length);
    expect((await get({ 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('a missing key is 404 with or without a range', async () => {
    const missing = url.replace(/[0-9a-f]{32}/, '0'.repeat(32));
    expect((await t.app.inject({ method: 'GET', url: missing, headers: { range: 'bytes=0-9' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: missing })).statusCode).toBe(404);
  });

  it('parses and resolves ranges', () => {
    expect(parseRange('bytes=0-9')).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-')).toEqual({ start: 10 });
    expect(parseRange('bytes=-5')).toEqual({ suffix: 5 });
    expect(parseRange('bytes=1-2,3-4')).toBeUndefined();
    expect(resolveRange({ suffix: 0 }, 10)).toBeUndefined();
    expect(resolveRange({ start: 0 }, 0)).toBeUndefined();
    expect(resolveRange({ start: 3, end: 99 }, 10)).toEqual({ start: 3, end: 9 });
  });
});

describe('the Range header sent to S3 (the adapter itself runs against s3rver in storage-s3.test.ts)', () => {
  it('one range, open or suffix', () => {
    expect(rangeHeader({ start: 100, end: 199 })).toBe('bytes=100-199');
    expect(rangeHeader({ start: 7 })).toBe('bytes=7-');
    expect(rangeHeader({ suffix: 500 })).toBe('bytes=-500');
  });
});
