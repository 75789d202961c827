import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { amzDateOf, canonicalQuery, EMPTY_SHA256, sha256Hex, signV4, uriEncode } from '../src/providers/storage/sigv4.ts';
import { buildS3Request, s3Storage, type S3Config } from '../src/providers/storage/s3.ts';
import { localStorage } from '../src/providers/storage/local.ts';
import { isPublicKey, isStorageKey } from '../src/providers/storage/types.ts';
import { loadConfig } from '../src/config.ts';

/**
 * The storage providers. SigV4 is checked against AWS's own published examples: the SigV4 test
 * suite's get-vanilla and get-vanilla-query-order-key-case (credentials AKIDEXAMPLE, 2015-08-30,
 * service "service"), and the S3 API reference's header-signing examples (GET Object with a Range,
 * PUT Object, GET Bucket lifecycle, GET Bucket list; credentials AKIAIOSFODNN7EXAMPLE, 2013-05-24).
 * The S3 adapter itself was NOT run against a real S3-compatible store (none is reachable here):
 * its requests are checked for shape and signature only.
 */

const SUITE = { region: 'us-east-1', service: 'service', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', amzDate: '20150830T123600Z' };
const S3DOC = { region: 'us-east-1', service: 's3', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', amzDate: '20130524T000000Z' };
const S3HOST = 'examplebucket.s3.amazonaws.com';

describe('SigV4 against AWS published examples', () => {
  it('get-vanilla (SigV4 test suite)', () => {
    const r = signV4({ ...SUITE, method: 'GET', host: 'example.amazonaws.com', path: '/', payloadHash: sha256Hex('') });
    expect(r.canonicalRequest).toBe('GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n' + EMPTY_SHA256);
    expect(r.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  it('get-vanilla-query-order-key-case (SigV4 test suite): the query is sorted before signing', () => {
    const r = signV4({ ...SUITE, method: 'GET', host: 'example.amazonaws.com', path: '/', query: { Param2: 'value2', Param1: 'value1' }, payloadHash: EMPTY_SHA256 });
    expect(r.signature).toBe('b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500');
  });

  it('S3 GET Object with a Range header', () => {
    const r = signV4({ ...S3DOC, method: 'GET', host: S3HOST, path: '/test.txt', headers: { Range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_SHA256 }, payloadHash: EMPTY_SHA256 });
    expect(r.canonicalRequest).toBe(
      `GET\n/test.txt\n\nhost:${S3HOST}\nrange:bytes=0-9\nx-amz-content-sha256:${EMPTY_SHA256}\nx-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n${EMPTY_SHA256}`,
    );
    expect(r.stringToSign).toBe('AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972');
    expect(r.signature).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
  });

  it('S3 PUT Object: the key is encoded ($ → %24) and the body hash signed', () => {
    const hash = sha256Hex('Welcome to Amazon S3.');
    expect(hash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const r = signV4({
      ...S3DOC,
      method: 'PUT',
      host: S3HOST,
      path: '/test$file.text',
      headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY', 'x-amz-content-sha256': hash },
      payloadHash: hash,
    });
    expect(r.canonicalRequest.split('\n').slice(0, 2)).toEqual(['PUT', '/test%24file.text']);
    expect(r.stringToSign.split('\n')[3]).toBe('9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d');
    expect(r.signedHeaders).toBe('date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class');
    expect(r.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
  });

  it('S3 GET Bucket lifecycle: a query parameter without a value signs as "lifecycle="', () => {
    const r = signV4({ ...S3DOC, method: 'GET', host: S3HOST, path: '/', query: { lifecycle: '' }, headers: { 'x-amz-content-sha256': EMPTY_SHA256 }, payloadHash: EMPTY_SHA256 });
    expect(r.stringToSign.split('\n')[3]).toBe('9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca');
    expect(r.signature).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
  });

  it('S3 GET Bucket (list objects): parameters sorted', () => {
    const r = signV4({ ...S3DOC, method: 'GET', host: S3HOST, path: '/', query: { prefix: 'J', 'max-keys': '2' }, headers: { 'x-amz-content-sha256': EMPTY_SHA256 }, payloadHash: EMPTY_SHA256 });
    expect(r.signature).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });

  it('encodes as RFC 3986 wants, and formats the date', () => {
    expect(uriEncode('a b+c/d~e_f.g-h*', false)).toBe('a%20b%2Bc/d~e_f.g-h%2A');
    expect(uriEncode('a/b', true)).toBe('a%2Fb');
    expect(uriEncode('作品.png', false)).toBe('%E4%BD%9C%E5%93%81.png');
    expect(canonicalQuery({ b: '2', a: '1', A: '0' })).toBe('A=0&a=1&b=2');
    expect(amzDateOf(Date.UTC(2013, 4, 24, 0, 0, 0, 123))).toBe('20130524T000000Z');
  });
});

describe('S3 adapter request shape (not run against a real S3)', () => {
  const cfg: S3Config = { endpoint: 'https://s3.example.test', bucket: 'media', region: 'cn-north-1', accessKeyId: 'AKIDTEST', secretAccessKey: 'secret', pathStyle: true, timeoutMs: 1000 };
  const at = Date.UTC(2026, 10, 20, 8, 30, 0);

  it('PUT: path-style URL, content type and body hash signed, the signature verifiable', () => {
    const bytes = Buffer.from('PNG bytes');
    const req = buildS3Request(cfg, 'PUT', 'public/img/202611/0123456789abcdef0123456789abcdef.png', at, { bytes, contentType: 'image/png' });
    expect(req.method).toBe('PUT');
    expect(req.url).toBe('https://s3.example.test/media/public/img/202611/0123456789abcdef0123456789abcdef.png');
    expect(req.headers['content-type']).toBe('image/png');
    expect(req.headers['x-amz-content-sha256']).toBe(sha256Hex(bytes));
    expect(req.headers['x-amz-date']).toBe('20261120T083000Z');
    expect(req.headers.host).toBe('s3.example.test');
    expect(req.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/20261120\/cn-north-1\/s3\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    // The same inputs signed independently give the same signature (nothing random, nothing left out).
    const again = signV4({
      method: 'PUT',
      host: 's3.example.test',
      path: '/media/public/img/202611/0123456789abcdef0123456789abcdef.png',
      headers: { 'content-type': 'image/png', 'x-amz-content-sha256': sha256Hex(bytes) },
      payloadHash: sha256Hex(bytes),
      region: 'cn-north-1',
      service: 's3',
      accessKeyId: 'AKIDTEST',
      secretAccessKey: 'secret',
      amzDate: '20261120T083000Z',
    });
    expect(req.headers.authorization).toBe(again.authorization);
    // The secret never appears in what is sent.
    expect(JSON.stringify(req)).not.toContain('secret');
  });

  it('GET / DELETE: empty-body hash; virtual-hosted style puts the bucket in the host', () => {
    const get = buildS3Request({ ...cfg, pathStyle: false }, 'GET', 'private/doc/202611/0123456789abcdef0123456789abcdef.pdf', at);
    expect(get.url).toBe('https://media.s3.example.test/private/doc/202611/0123456789abcdef0123456789abcdef.pdf');
    expect(get.headers.host).toBe('media.s3.example.test');
    expect(get.headers['x-amz-content-sha256']).toBe(EMPTY_SHA256);
    expect(get.headers['content-type']).toBeUndefined();
    const del = buildS3Request(cfg, 'DELETE', 'private/doc/202611/0123456789abcdef0123456789abcdef.pdf', at);
    expect(del.method).toBe('DELETE');
    expect(del.headers.authorization).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date,');
  });

  it('refuses keys that are not storage keys, and builds public URLs', () => {
    expect(() => buildS3Request(cfg, 'GET', '../etc/passwd', at)).toThrow('invalid storage key');
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
