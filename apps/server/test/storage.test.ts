import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { AwsV4Signer } from 'aws4fetch';
import { buildS3Request, s3Client, s3Storage, type S3Config } from '../src/providers/storage/s3.ts';
import { localStorage } from '../src/providers/storage/local.ts';
import { isPublicKey, isStorageKey } from '../src/providers/storage/types.ts';
import { loadConfig } from '../src/config.ts';

/**
 * The storage providers. The S3 adapter signs with aws4fetch; here its signatures, with the headers
 * the adapter sends, are checked against AWS's own published examples (the SigV4 test suite's
 * get-vanilla, credentials AKIDEXAMPLE, 2015-08-30, service "service"; the S3 API reference's
 * header-signing examples: GET Object with a Range, PUT Object, GET Bucket lifecycle, GET Bucket
 * list; credentials AKIAIOSFODNN7EXAMPLE, 2013-05-24), and the shape of the adapter's requests.
 * The adapter itself runs against a real S3-protocol server (s3rver) in storage-s3.test.ts.
 */

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const sha256Hex = (b: string | Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const S3DOC = { region: 'us-east-1', service: 's3', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', datetime: '20130524T000000Z', allHeaders: true };
const S3URL = 'https://examplebucket.s3.amazonaws.com';
const authorization = async (signer: AwsV4Signer) => (await signer.sign()).headers.get('authorization');
const signatureOf = async (signer: AwsV4Signer) => /Signature=([0-9a-f]{64})$/.exec((await authorization(signer)) ?? '')?.[1];

describe('SigV4 (aws4fetch) against AWS published examples', () => {
  it('get-vanilla (SigV4 test suite)', async () => {
    const signer = new AwsV4Signer({ region: 'us-east-1', service: 'service', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', datetime: '20150830T123600Z', method: 'GET', url: 'https://example.amazonaws.com/' });
    expect(await authorization(signer)).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  it('S3 GET Object with a Range header (signed, as the adapter signs it)', async () => {
    const signer = new AwsV4Signer({ ...S3DOC, method: 'GET', url: `${S3URL}/test.txt`, headers: { Range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_SHA256 } });
    expect(await authorization(signer)).toContain('SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,');
    expect(await signatureOf(signer)).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
  });

  it('S3 PUT Object: the key is encoded ($ → %24) and the body hash signed', async () => {
    const hash = sha256Hex('Welcome to Amazon S3.');
    expect(hash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const signer = new AwsV4Signer({
      ...S3DOC,
      method: 'PUT',
      url: `${S3URL}/test$file.text`,
      headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY', 'x-amz-content-sha256': hash },
    });
    expect(await authorization(signer)).toContain('SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,');
    expect(await signatureOf(signer)).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
  });

  it('S3 GET Bucket lifecycle and list objects: query parameters signed ("lifecycle=", sorted)', async () => {
    const headers = { 'x-amz-content-sha256': EMPTY_SHA256 };
    expect(await signatureOf(new AwsV4Signer({ ...S3DOC, method: 'GET', url: `${S3URL}/?lifecycle`, headers }))).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
    expect(await signatureOf(new AwsV4Signer({ ...S3DOC, method: 'GET', url: `${S3URL}/?prefix=J&max-keys=2`, headers }))).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });
});

describe('S3 adapter request shape', () => {
  const cfg: S3Config = { endpoint: 'https://s3.example.test', bucket: 'media', region: 'cn-north-1', accessKeyId: 'AKIDTEST', secretAccessKey: 'secret', pathStyle: true, timeoutMs: 1000 };
  const client = s3Client(cfg);
  const at = Date.UTC(2026, 10, 20, 8, 30, 0);
  const key = 'public/img/202611/0123456789abcdef0123456789abcdef.png';

  it('PUT: path-style URL, content type and body hash signed, the signature what an independent signer gives', async () => {
    const bytes = Buffer.from('PNG bytes');
    const req = await buildS3Request(client, cfg, 'PUT', key, { body: { bytes, contentType: 'image/png' }, now: at });
    expect(req.method).toBe('PUT');
    expect(req.url).toBe(`https://s3.example.test/media/${key}`);
    expect(req.headers.get('content-type')).toBe('image/png');
    expect(req.headers.get('x-amz-content-sha256')).toBe(sha256Hex(bytes));
    expect(req.headers.get('x-amz-date')).toBe('20261120T083000Z');
    expect(Buffer.from(await req.arrayBuffer()).equals(bytes)).toBe(true);
    const auth = req.headers.get('authorization')!;
    expect(auth).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/20261120\/cn-north-1\/s3\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
    // The same inputs signed on their own give the same signature (nothing random, nothing left out).
    const again = new AwsV4Signer({
      method: 'PUT',
      url: `https://s3.example.test/media/${key}`,
      headers: { 'content-type': 'image/png', 'x-amz-content-sha256': sha256Hex(bytes) },
      region: 'cn-north-1',
      service: 's3',
      accessKeyId: 'AKIDTEST',
      secretAccessKey: 'secret',
      datetime: '20261120T083000Z',
      allHeaders: true,
    });
    expect(auth).toBe(await authorization(again));
    // The secret never appears in what is sent.
    expect(JSON.stringify([...req.headers])).not.toContain('secret');
  });

  it('GET with a Range / DELETE: empty-body hash, Range signed; virtual-hosted style puts the bucket in the host', async () => {
    const doc = 'private/doc/202611/0123456789abcdef0123456789abcdef.pdf';
    const get = await buildS3Request(client, { ...cfg, pathStyle: false }, 'GET', doc, { now: at, range: 'bytes=100-199' });
    expect(get.url).toBe(`https://media.s3.example.test/${doc}`);
    expect(get.headers.get('x-amz-content-sha256')).toBe(EMPTY_SHA256);
    expect(get.headers.get('range')).toBe('bytes=100-199');
    expect(get.headers.get('content-type')).toBeNull();
    expect(get.headers.get('authorization')).toContain('SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,');
    const del = await buildS3Request(client, cfg, 'DELETE', doc, { now: at });
    expect(del.method).toBe('DELETE');
    expect(del.headers.get('authorization')).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date,');
  });

  it('refuses keys that are not storage keys, and builds public URLs', async () => {
    expect(() => buildS3Request(client, cfg, 'GET', '../etc/passwd', { now: at })).toThrow('invalid storage key');
    expect(s3Storage(cfg).url('public/img/202611/ab.png')).toBe('/media/uploads/public/img/202611/ab.png');
    expect(s3Storage({ ...cfg, publicBaseUrl: 'https://cdn.example.test/' }).url('public/img/202611/ab.png')).toBe('https://cdn.example.test/public/img/202611/ab.png');
  });
});

describe('storage keys', () => {
  it('accept only the generated shape', () => {
    expect(isStorageKey('public/img/202611/0123456789abcdef0123456789abcdef.png')).toBe(true);
    expect(isPublicKey('private/doc/202611/0123456789abcdef0123456789abcdef.pdf')).toBe(false);
    for (const bad of ['', 'public', 'public/../x.png', 'public/img/../../x.png', '/public/img/x.png', 'public//x.png', 'public/img/X.PNG', 'public/img/a b.png', 'public/img/x.png/', 'public\\img\\x.png', 'other/img/x.png', 'public/img/%2e%2e/x.png', 'public/img/x']) {
      expect(isStorageKey(bad), bad).toBe(false);
    }
  });
});

describe('local provider', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-storage-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const store = localStorage(path.join(root, 'uploads'));
  const key = 'public/img/202611/0123456789abcdef0123456789abcdef.png';

  it('stores private files (0600 in 0700 directories), reads them back, deletes them', async () => {
    await store.put(key, Buffer.from('hello'), 'image/png');
    const file = path.join(root, 'uploads', key);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(root, 'uploads')).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['0123456789abcdef0123456789abcdef.png']); // no temporary file left
    const obj = await store.get(key);
    expect(obj?.size).toBe(5);
    expect(obj?.contentType).toBe('image/png');
    expect(await text(obj!.body)).toBe('hello');
    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
    await store.delete(key); // a missing key is not an error
  });

  it('never leaves its root', async () => {
    fs.writeFileSync(path.join(root, 'secret.txt'), 'secret');
    await expect(store.get('public/../secret.txt')).rejects.toThrow('invalid storage key');
    await expect(store.put('../secret.png', Buffer.from('x'), 'image/png')).rejects.toThrow('invalid storage key');
    expect(fs.readFileSync(path.join(root, 'secret.txt'), 'utf8')).toBe('secret');
  });
});

describe('configuration', () => {
  it('local by default; s3 needs its settings; limits in MB', () => {
    const c = loadConfig({});
    expect(c.uploads).toMatchObject({ provider: 'local', imageMaxBytes: 5 * 1024 * 1024, fileMaxBytes: 20 * 1024 * 1024, perUserDay: 100 });
    expect(loadConfig({ UPLOAD_IMAGE_MAX_MB: '0.5' }).uploads.imageMaxBytes).toBe(512 * 1024);
    expect(() => loadConfig({ STORAGE_PROVIDER: 'ftp' })).toThrow('STORAGE_PROVIDER must be one of local, s3');
    expect(() => loadConfig({ STORAGE_PROVIDER: 's3', S3_ENDPOINT: 'https://s3.example.test' })).toThrow('STORAGE_PROVIDER=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY');
    const s3 = loadConfig({ STORAGE_PROVIDER: 's3', S3_ENDPOINT: 'https://s3.example.test', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_PATH_STYLE: '0' });
    expect(s3.uploads.s3).toMatchObject({ bucket: 'b', region: 'us-east-1', pathStyle: false });
    expect(() => loadConfig({ STORAGE_PROVIDER: 's3', S3_ENDPOINT: 'https://s3.example.test', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_PUBLIC_BASE_URL: 'http://cdn' })).toThrow('https://');
  });
});
