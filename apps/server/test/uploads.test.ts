import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettledPaths } from '@cfx/contract/routes.ts';
import { sniff } from '../src/modules/uploads/sniff.ts';
import { sanitiseFileName } from '../src/modules/uploads/save-upload.ts';
import { API, call, makeApp, register, type TestApp } from './helpers.ts';
import { fixture, multipartBody, png, send, upload } from './upload-helpers.ts';

/**
 * Uploads on a real app and database (SQLite, or PostgreSQL with TEST_PG_URL) with the local storage
 * provider: types judged by magic bytes, size limits (declared and streamed), empty / missing files,
 * image pixel bounds, random keys that cannot traverse, public files served back with the right
 * headers, private files only to their owner, the daily quota, and a real HTTP listener.
 */
let t: TestApp;
const EN = { lang: 'en' };
const MB = 1024 * 1024;

beforeAll(async () => {
  t = await makeApp({}, { UPLOAD_IMAGE_MAX_MB: '1', UPLOAD_FILE_MAX_MB: '2', UPLOADS_PER_USER_DAY: '12' });
});
afterAll(async () => {
  await t?.close();
});

const KEY_RE = /^public\/img\/\d{6}\/[0-9a-f]{32}\.(png|jpg|webp|gif)$/;
const DOC_KEY_RE = /^private\/doc\/\d{6}\/[0-9a-f]{32}\.(pdf|zip|docx|jpg|png)$/;

describe('sniffing by magic bytes', () => {
  it('knows the accepted types and reads image sizes from their headers', () => {
    expect(sniff(png(64, 48))).toEqual({ type: 'image/png', width: 64, height: 48 });
    expect(sniff(fixture('artwork.jpg'))).toEqual({ type: 'image/jpeg', width: 120, height: 80 });
    expect(sniff(fixture('artwork.webp'))).toEqual({ type: 'image/webp', width: 64, height: 40 });
    expect(sniff(fixture('artwork-lossless.webp'))).toEqual({ type: 'image/webp', width: 40, height: 30 });
    expect(sniff(fixture('artwork-alpha.webp'))).toEqual({ type: 'image/webp', width: 24, height: 18 });
    expect(sniff(fixture('artwork.gif'))).toEqual({ type: 'image/gif', width: 32, height: 24 });
    expect(sniff(fixture('licence.pdf'))).toEqual({ type: 'application/pdf' });
    expect(sniff(fixture('licence.docx'))).toEqual({ type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
    expect(sniff(fixture('materials.zip'))).toEqual({ type: 'application/zip' });
  });
  it('refuses look-alikes', () => {
    expect(sniff(Buffer.from('this is text, named .png'))).toBeUndefined();
    expect(sniff(Buffer.from('%PDF-1.4\nno end of file marker'))).toBeUndefined();
    expect(sniff(Buffer.concat([Buffer.from('PK\u0003\u0004'), crypto.randomBytes(200)]))).toBeUndefined();
    expect(sniff(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeUndefined();
    expect(sniff(Buffer.from('GIF8'))).toBeUndefined();
  });
  it('sanitises file names to metadata', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseFileName('C:\\Users\\a\\作品 1.png')).toBe('作品 1.png');
    expect(sanitiseFileName('evil\u0000<script>\u202e.png')).toBe('evilscript.png');
    expect(sanitiseFileName('...')).toBe('file');
    expect(sanitiseFileName('')).toBe('file');
    const long = sanitiseFileName('长'.repeat(300) + '.docx');
    expect([...long].length).toBe(100);
    expect(long.endsWith('.docx')).toBe(true);
  });
});

describe('image upload (/official/settled/oss/upload)', () => {
  it('needs a login', async () => {
    const r = await upload(t, SettledPaths.upload, undefined, { data: png(32, 32), filename: 'a.png' }, EN);
    expect(r).toMatchObject({ status: '1100', code: '1100', message: 'not logged in or session expired, please log in first!' });
  });

  it('stores a real PNG under a random key and serves it back with the right headers', async () => {
    const u = await register(t);
    const bytes = png(64, 48);
    const r = await upload(t, SettledPaths.upload, u.token, { data: bytes, filename: '我的作品.png', contentType: 'image/png' });
    // official paths: code 200 on success, status 000000
    expect(r).toMatchObject({ http: 200, status: '000000', code: 200 });
    expect(r.data).toMatchObject({ name: '我的作品.png', size: bytes.length, type: 'image/png' });
    expect(r.data.key).toMatch(KEY_RE);
    expect(r.data.url).toBe(`/media/uploads/${r.data.key}`);
    const row = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('key', '=', r.data.key).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'image', content_type: 'image/png', original_name: '我的作品.png', sha256: crypto.createHash('sha256').update(bytes).digest('hex') });
    expect(Number(row.size)).toBe(bytes.length);

    const got = await t.app.inject({ method: 'GET', url: r.data.url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(got.headers['content-security-policy']).toContain("default-src 'none'");
    expect(got.rawPayload.equals(bytes)).toBe(true);
    // on disk: private file in a private directory, named by the key only
    const file = path.join(t.ctx.config.dataDir, 'uploads', r.data.key);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('judges the type by the bytes, not the name or the claimed content type', async () => {
    const u = await register(t);
    const fake = await upload(t, SettledPaths.upload, u.token, { data: 'just some text pretending to be an image', filename: 'photo.png', contentType: 'image/png' }, EN);
    expect(fake).toMatchObject({ http: 200, status: '1030', code: '1030', message: 'only JPG, PNG, WebP and GIF images are accepted' });
    const pdf = await upload(t, SettledPaths.upload, u.token, { data: fixture('licence.pdf'), filename: 'cover.jpg', contentType: 'image/jpeg' }, EN);
    expect(pdf).toMatchObject({ status: '1030', message: 'only JPG, PNG, WebP and GIF images are accepted' });
    const svg = await upload(t, SettledPaths.upload, u.token, { data: '<svg xmlns="http://www.w3.org/2000/svg"/>', filename: 'a.svg', contentType: 'image/svg+xml' }, EN);
    expect(svg.status).toBe('1030');
    // a real JPEG named .txt and sent as text/plain is a JPEG
    const jpeg = await upload(t, SettledPaths.upload, u.token, { data: fixture('artwork.jpg'), filename: 'notes.txt', contentType: 'text/plain' });
    expect(jpeg).toMatchObject({ status: '000000', data: { type: 'image/jpeg', name: 'notes.txt' } });
    expect(jpeg.data.key).toMatch(/\.jpg$/);
    for (const [f, type] of [['artwork.webp', 'image/webp'], ['artwork.gif', 'image/gif']] as const) {
      expect((await upload(t, SettledPaths.upload, u.token, { data: fixture(f), filename: f })).data.type).toBe(type);
    }
    expect(await t.ctx.db.kysely.selectFrom('uploads').select('id').where('original_name', '=', 'photo.png').execute()).toEqual([]);
  });

  it('refuses empty files, missing files and non-multipart bodies with clear messages', async () => {
    const u = await register(t);
    expect(await upload(t, SettledPaths.upload, u.token, { data: Buffer.alloc(0), filename: 'empty.png' }, EN)).toMatchObject({ status: '1030', message: 'the file is empty' });
    const fieldsOnly = multipartBody([{ name: 'note', data: 'no file here' }]);
    expect(await send(t, SettledPaths.upload, fieldsOnly.body, { 'content-type': fieldsOnly.contentType, token: u.token, ...EN })).toMatchObject({ status: '1030', message: 'please choose a file to upload' });
    const json = await call(t, SettledPaths.upload, { file: 'x' }, { token: u.token, ...EN });
    expect(json).toMatchObject({ status: '1030', message: 'please upload the file as multipart/form-data' });
    const broken = await send(t, SettledPaths.upload, '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc', { 'content-type': 'multipart/form-data; boundary=x', token: u.token, ...EN });
    expect(broken.status).toMatch(/^(1001|1030)$/);
    expect(broken.http).toBeLessThan(500);
  });

  it('refuses files over the limit: declared too large before reading, or cut off while streaming', async () => {
    const u = await register(t);
    // 1 MB limit here (UPLOAD_IMAGE_MAX_MB=1). Random pixels do not compress: ≈1.44 MB.
    const big = png(600, 600, true);
    expect(big.length).toBeGreaterThan(MB + 64 * 1024);
    expect(await upload(t, SettledPaths.upload, u.token, { data: big, filename: 'big.png' }, EN)).toMatchObject({ http: 200, status: '1030', message: 'the file is too large (at most 1 MB)' });
    // just over the limit: passes the declared-length check, busboy truncates the stream
    const over = Buffer.concat([png(64, 64), crypto.randomBytes(MB)]);
    expect(over.length).toBeLessThan(MB + 64 * 1024);
    expect(await upload(t, SettledPaths.upload, u.token, { data: over, filename: 'over.png' }, EN)).toMatchObject({ status: '1030', message: 'the file is too large (at most 1 MB)' });
    // exactly at the limit is fine (a PNG followed by padding still sniffs as the PNG it starts with)
    const atLimit = Buffer.concat([png(64, 64)]);
    const padded = Buffer.concat([atLimit, Buffer.alloc(MB - atLimit.length)]);
    expect((await upload(t, SettledPaths.upload, u.token, { data: padded, filename: 'edge.png' })).status).toBe('000000');
    expect(await t.ctx.db.kysely.selectFrom('uploads').select('id').where('original_name', 'in', ['big.png', 'over.png']).execute()).toEqual([]);
  });

  it('refuses images too small, too large in pixels, or with a broken header', async () => {
    const u = await register(t);
    const msg = 'the image is damaged or its size is out of range (each side 16 to 10000 pixels)';
    expect(await upload(t, SettledPaths.upload, u.token, { data: png(8, 8), filename: 'tiny.png' }, EN)).toMatchObject({ status: '1030', message: msg });
    const bomb = png(16, 16);
    bomb.writeUInt32BE(20_000, 16); // IHDR width
    bomb.writeUInt32BE(20_000, 20); // IHDR height
    expect(await upload(t, SettledPaths.upload, u.token, { data: bomb, filename: 'bomb.png' }, EN)).toMatchObject({ status: '1030', message: msg });
    const jpegHead = fixture('artwork.jpg').subarray(0, 20); // SOI and APP0, no frame header
    expect(await upload(t, SettledPaths.upload, u.token, { data: jpegHead, filename: 'cut.jpg' }, EN)).toMatchObject({ status: '1030', message: msg });
  });
});

describe('document upload (/official/settled/oss/uploadfile)', () => {
  it('takes PDF, DOCX, ZIP and JPEG/PNG scans by their bytes; refuses others', async () => {
    const u = await register(t);
    const cases = [
      ['licence.pdf', 'application/pdf', 'pdf'],
      ['licence.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
      ['materials.zip', 'application/zip', 'zip'],
      ['artwork.jpg', 'image/jpeg', 'jpg'],
    ] as const;
    for (const [f, type, ext] of cases) {
      const r = await upload(t, SettledPaths.uploadFile, u.token, { data: fixture(f), filename: f });
      expect(r, f).toMatchObject({ status: '000000', code: 200, data: { type, name: f } });
      expect(r.data.key).toMatch(DOC_KEY_RE);
      expect(r.data.key.endsWith(`.${ext}`)).toBe(true);
      expect(r.data.url).toBe(`${API}${SettledPaths.file}?key=${encodeURIComponent(r.data.key)}`);
    }
    const msg = 'only PDF, ZIP and DOCX files or JPG and PNG scans are accepted';
    expect(await upload(t, SettledPaths.uploadFile, u.token, { data: fixture('artwork.gif'), filename: 'a.gif' }, EN)).toMatchObject({ status: '1030', message: msg });
    expect(await upload(t, SettledPaths.uploadFile, u.token, { data: 'plain text', filename: 'licence.pdf', contentType: 'application/pdf' }, EN)).toMatchObject({ status: '1030', message: msg });
    // the zh message by default
    expect((await upload(t, SettledPaths.uploadFile, u.token, { data: 'plain text', filename: 'licence.pdf' })).message).toBe('仅支持 PDF、ZIP、DOCX 文件或 JPG、PNG 扫描件');
    // 2 MB limit here
    const big = Buffer.concat([fixture('licence.pdf'), crypto.randomBytes(2 * MB)]);
    expect(await upload(t, SettledPaths.uploadFile, u.token, { data: big, filename: 'big.pdf' }, EN)).toMatchObject({ status: '1030', message: 'the file is too large (at most 2 MB)' });
  });

  it('private files: only their owner downloads them; never served under /media/uploads', async () => {
    const owner = await register(t);
    const other = await register(t);
    const pdf = fixture('licence.pdf');
    const r = await upload(t, SettledPaths.uploadFile, owner.token, { data: pdf, filename: '营业执照 扫描.pdf' });
    const key = r.data.key as string;
    const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `${API}${SettledPaths.file}?key=${encodeURIComponent(key)}`, headers });
    const mine = await get({ token: owner.token });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('application/pdf');
    expect(mine.headers['content-disposition']).toBe(`attachment; filename="____ __.pdf"; filename*=UTF-8''${encodeURIComponent('营业执照 扫描.pdf')}`);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.headers['x-content-type-options']).toBe('nosniff');
    expect(mine.rawPayload.equals(pdf)).toBe(true);
    expect((await get({ token: other.token, ...EN })).json()).toMatchObject({ status: '1404', message: 'endpoint not found' });
    expect((await get({})).json()).toMatchObject({ status: '1100' });
    expect((await t.app.inject({ method: 'GET', url: `/media/uploads/${key}` })).statusCode).toBe(404);
  });
});

describe('serving public uploads', () => {
  it('never lists directories or leaves the storage root', async () => {
    fs.writeFileSync(path.join(t.ctx.config.dataDir, 'uploads', 'outside.png'), 'outside');
    for (const url of [
      '/media/uploads/',
      '/media/uploads/public/',
      '/media/uploads/public/img/',
      '/media/uploads/outside.png',
      '/media/uploads/public/../outside.png',
      '/media/uploads/public/img/..%2F..%2Foutside.png',
      '/media/uploads/public%2F..%2Foutside.png',
      '/media/uploads/public/img/202611/../../../marketplace.sqlite',
      '/media/uploads/public/img/202611/0123456789abcdef0123456789abcdef.png',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('outside');
    }
  });
});

describe('daily quota', () => {
  it('counts files per user over 24 hours', async () => {
    const q = await makeApp({}, { UPLOADS_PER_USER_DAY: '3' });
    try {
      const u = await register(q);
      for (let i = 0; i < 3; i++) expect((await upload(q, SettledPaths.upload, u.token, { data: png(20, 20), filename: `${i}.png` })).status).toBe('000000');
      expect(await upload(q, SettledPaths.upload, u.token, { data: png(20, 20), filename: '4.png' }, EN)).toMatchObject({
        status: '1006',
        message: 'daily upload limit reached (3 files), please try again tomorrow',
      });
      // another user is not affected; the same user may upload again 24 hours later
      expect((await upload(q, SettledPaths.upload, (await register(q)).token, { data: png(20, 20), filename: 'x.png' })).status).toBe('000000');
      q.clock.t += 24 * 3600_000 + 1;
      expect((await upload(q, SettledPaths.upload, u.token, { data: png(20, 20), filename: '5.png' })).status).toBe('000000');
    } finally {
      await q.close();
    }
  });

  it('counts bytes per user over 24 hours', async () => {
    const q = await makeApp({}, { UPLOAD_MB_PER_USER_DAY: '1' });
    try {
      const u = await register(q);
      const half = png(300, 300, true); // ≈ 360 KB
      expect((await upload(q, SettledPaths.upload, u.token, { data: half, filename: 'a.png' })).status).toBe('000000');
      expect((await upload(q, SettledPaths.upload, u.token, { data: half, filename: 'b.png' })).status).toBe('000000');
      expect(await upload(q, SettledPaths.upload, u.token, { data: half, filename: 'c.png' }, EN)).toMatchObject({
        status: '1006',
        message: 'daily upload volume reached (1 MB), please try again tomorrow',
      });
    } finally {
      await q.close();
    }
  });
});

describe('over a real HTTP listener', () => {
  it('uploads with the platform FormData and reads the file back', async () => {
    const u = await register(t);
    const addr = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const bytes = png(40, 30);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'http.png');
    const res = await fetch(`${addr}${API}${SettledPaths.upload}`, { method: 'POST', body: form, headers: { token: u.token, channel: 'pc' } });
    const r = await res.json();
    expect(r).toMatchObject({ status: '000000', code: 200, data: { name: 'http.png', type: 'image/png', size: bytes.length } });
    const file = await fetch(`${addr}${r.data.url}`);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    // a body far over the limit is answered with the envelope before it is read
    const huge = new FormData();
    huge.append('file', new Blob([new Uint8Array(3 * MB)], { type: 'image/png' }), 'huge.png');
    const big = await fetch(`${addr}${API}${SettledPaths.upload}`, { method: 'POST', body: huge, headers: { token: u.token, channel: 'pc', lang: 'en' } });
    expect(await big.json()).toMatchObject({ status: '1030', message: 'the file is too large (at most 1 MB)' });
  });
});
