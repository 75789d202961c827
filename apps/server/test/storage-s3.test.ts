import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettledPaths } from '@cfx/contract/routes.ts';
import { s3Client, s3Storage, S3Error, type S3Config } from '../src/providers/storage/s3.ts';
import { makeApp, register, type TestApp } from './helpers.ts';
import { upload } from './upload-helpers.ts';

/**
 * The S3 storage adapter against a real S3-protocol server: s3rver (a devDependency that keeps
 * buckets in a directory; key pair S3RVER/S3RVER), started on a free loopback port in a temporary
 * directory. The adapter signs with
 * aws4fetch; s3rver refuses an unknown access key but does not verify V4 signatures, so those are
 * checked against AWS's published examples in storage.test.ts.
 *
 * s3rver does not implement suffix ranges (`bytes=-n`): those are covered on the local provider
 * (media-uploads.test.ts); the adapter only passes them on as `bytes=-n`.
 */
const BUCKET = 'cfx-media';
let server: S3rver;
let dir: string;
let cfg: S3Config;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-s3rver-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true, vhostBuckets: false });
  const { port } = await server.run();
  cfg = { endpoint: `http://127.0.0.1:${port}`, bucket: BUCKET, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', pathStyle: true, timeoutMs: 5000 };
  // Create the bucket with a signed PUT Bucket, as an operator's tool would.
  const res = await s3Client(cfg).fetch(`${cfg.endpoint}/${BUCKET}`, { method: 'PUT' });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const key = (ext: string, prefix = 'public/img/202611') => `${prefix}/${crypto.randomBytes(16).toString('hex')}.${ext}`;

describe('S3 adapter on s3rver', () => {
  it('put, get, overwrite, delete; a missing key is undefined; deleting it again is no error', async () => {
    const store = s3Storage(cfg);
    const k = key('png');
    await store.put(k, Buffer.from('first bytes'), 'image/png');
    const obj = await store.get(k);
    expect(obj).toMatchObject({ size: 11, contentType: 'image/png' });
    expect(await text(obj!.body)).toBe('first bytes');
    // The object really is in the bucket's directory, under the key.
    expect(fs.readdirSync(path.join(dir, BUCKET, ...path.dirname(k).split('/')))).toContain(`${path.basename(k)}._S3rver_object`);

    await store.put(k, Buffer.from('second, longer bytes'), 'image/png');
    const again = await store.get(k);
    expect(again?.size).toBe(20);
    expect(await text(again!.body)).toBe('second, longer bytes');

    await store.delete(k);
    expect(await store.get(k)).toBeUndefined();
    await store.delete(k);
    expect(await store.get(key('png'))).toBeUndefined();
    expect(await store.getRange(key('mp4', 'public/media/202611'), { start: 0, end: 9 })).toBeUndefined();
  });

  it('content type by the key, whatever was stored; binary bytes unchanged', async () => {
    const store = s3Storage(cfg);
    const bytes = crypto.randomBytes(70_000);
    const k = key('pdf', 'private/doc/202611');
    await store.put(k, bytes, 'application/octet-stream');
    const obj = await store.get(k);
    expect(obj?.contentType).toBe('application/pdf');
    expect((await buffer(obj!.body)).equals(bytes)).toBe(true);
  });

  it('Range GET: 206 with only those bytes, an open range, an end past the object, and 416 past the end', async () => {
    const store = s3Storage(cfg);
    const bytes = crypto.randomBytes(10_000);
    const k = key('mp4', 'public/media/202611');
    await store.put(k, bytes, 'video/mp4');

    const r = await store.getRange(k, { start: 100, end: 199 });
    expect(r).toMatchObject({ totalSize: 10_000, contentType: 'video/mp4', range: { start: 100, end: 199 } });
    expect(r!.lastModified).toBeGreaterThan(Date.now() - 600_000);
    expect((await buffer(r!.body!)).equals(bytes.subarray(100, 200))).toBe(true);

    const open = await store.getRange(k, { start: 9_000 });
    expect(open).toMatchObject({ totalSize: 10_000, range: { start: 9_000, end: 9_999 } });
    expect((await buffer(open!.body!)).equals(bytes.subarray(9_000))).toBe(true);

    const past = await store.getRange(k, { start: 9_990, end: 20_000 });
    expect(past).toMatchObject({ range: { start: 9_990, end: 9_999 } });
    expect((await buffer(past!.body!)).equals(bytes.subarray(9_990))).toBe(true);

    const unsatisfiable = await store.getRange(k, { start: 10_000 });
    expect(unsatisfiable).toMatchObject({ totalSize: 10_000, contentType: 'video/mp4' });
    expect(unsatisfiable!.body).toBeUndefined();
    expect(unsatisfiable!.range).toBeUndefined();
  });

  it('an unknown access key is refused by the server: S3Error with the status, no secret in the message', async () => {
    // (s3rver checks the access key id but, unlike S3, not a V4 signature: the signatures are checked
    // against AWS's published examples in storage.test.ts.)
    const store = s3Storage({ ...cfg, accessKeyId: 'NOT-A-KEY', secretAccessKey: 'not-the-secret' });
    const err = await store.put(key('png'), Buffer.from('x'), 'image/png').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(S3Error);
    expect(err).toMatchObject({ op: 'put', httpStatus: 403 });
    expect(String((err as Error).message)).not.toContain('not-the-secret');
    await expect(store.getRange(key('mp4', 'public/media/202611'), { start: 0 })).resolves.toBeUndefined(); // 403 reads as missing, like S3 without list rights
  });

  it('refuses keys that are not storage keys before any request, and builds public URLs', async () => {
    const store = s3Storage(cfg);
    await expect(store.get('../etc/passwd')).rejects.toThrow('invalid storage key');
    await expect(store.put('public/img/../../x.png', Buffer.from('x'), 'image/png')).rejects.toThrow('invalid storage key');
    expect(store.url('public/img/202611/ab.png')).toBe('/media/uploads/public/img/202611/ab.png');
    expect(s3Storage({ ...cfg, publicBaseUrl: 'https://cdn.example.test/' }).url('public/img/202611/ab.png')).toBe('https://cdn.example.test/public/img/202611/ab.png');
  });
});

describe('uploads through the app with STORAGE_PROVIDER=s3 (s3rver)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({}, { STORAGE_PROVIDER: 's3', S3_ENDPOINT: cfg.endpoint, S3_BUCKET: BUCKET, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An MP4 (ISO BMFF `ftyp` + `mdat` of random bytes), as the upload call sniffs it. */
  const mp4 = (n: number) => {
    const box = (type: string, payload: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(8 + payload.length, 0);
      head.write(type, 4, 'latin1');
      return Buffer.concat([head, payload]);
    };
    return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\x02\0isomavc1', 'latin1')), box('mdat', crypto.randomBytes(n))]);
  };

  it('an uploaded video lands in the bucket and /media/uploads/<key> answers a Range with 206 and those bytes', async () => {
    expect(t.ctx.storage.name).toBe('s3');
    const u = await register(t);
    const bytes = mp4(50_000);
    const r = await upload(t, `${SettledPaths.upload}?kind=media`, u.token, { data: bytes, filename: 'clip.mp4' });
    expect(r).toMatchObject({ status: '000000', data: { type: 'video/mp4' } });
    const url: string = r.data.url;
    expect(url).toBe(`/media/uploads/${r.data.key}`);
    expect(fs.existsSync(path.join(dir, BUCKET, `${r.data.key}._S3rver_object`))).toBe(true);

    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=1000-1999' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(part.headers['content-type']).toBe('video/mp4');
    expect(part.headers['content-length']).toBe('1000');
    expect(part.rawPayload.equals(bytes.subarray(1000, 2000))).toBe(true);

    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);

    const past = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${bytes.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);

    const missing = url.replace(/[0-9a-f]{32}/, '0'.repeat(32));
    expect((await t.app.inject({ method: 'GET', url: missing, headers: { range: 'bytes=0-9' } })).statusCode).toBe(404);
  });
});
