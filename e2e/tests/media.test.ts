import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiRegister, goto, launchBrowser, newMobile, startServer, userContext, type Server } from '../lib.ts';

/**
 * Video and 3D releases in a real browser: artwork media uploaded through ?kind=media, set on two
 * demo releases (projects.media_kind / media_key), the release page shows a <video> with poster,
 * controls and preload none (nothing fetched before play) and a GLB in <model-viewer>, whose chunk
 * loads only on the model's page; the server answers the browser's Range requests.
 */
let server: Server;
let browser: Browser;
let token = '';
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ CHAIN: 'off', DEMO_DATA: '1' }), launchBrowser()]);
  token = await apiRegister(server, newMobile());
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A binary glTF 2.0 with one triangle (positions only). */
function triangleGlb(): Buffer {
  const pos = Buffer.alloc(36);
  [0, 0, 0, 1, 0, 0, 0, 1, 0].forEach((v, i) => pos.writeFloatLE(v, i * 4));
  const gltf = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }],
    buffers: [{ byteLength: 36 }],
  };
  let json = Buffer.from(JSON.stringify(gltf));
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const chunk = (type: string, data: Buffer) => {
    const h = Buffer.alloc(8);
    h.writeUInt32LE(data.length, 0);
    h.write(type, 4, 'latin1');
    return Buffer.concat([h, data]);
  };
  const body = Buffer.concat([chunk('JSON', json), chunk('BIN\0', pos)]);
  const head = Buffer.alloc(12);
  head.write('glTF', 0, 'latin1');
  head.writeUInt32LE(2, 4);
  head.writeUInt32LE(12 + body.length, 8);
  return Buffer.concat([head, body]);
}

/** An ISO BMFF file with an MP4 brand (an `ftyp` and an `mdat`): enough for the sniffer and Range. */
function mp4Bytes(): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomavc1')]);
  const mdat = Buffer.alloc(8 + 64 * 1024, 7);
  mdat.writeUInt32BE(mdat.length, 0);
  mdat.write('mdat', 4, 'latin1');
  return Buffer.concat([ftyp, mdat]);
}

async function uploadMedia(bytes: Buffer, name: string): Promise<{ key: string; url: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.base}/mvapi/public/official/settled/oss/upload?kind=media`, { method: 'POST', headers: { token, channel: 'pc' }, body: form });
  const r = await res.json();
  expect(r.status).toBe('000000');
  return r.data;
}

function setMedia(projectId: number, kind: string, key: string) {
  const db = new Database(path.join(server.dataDir, 'marketplace.sqlite'));
  try {
    db.prepare('update projects set media_kind = ?, media_key = ? where id = ?').run(kind, key, projectId);
  } finally {
    db.close();
  }
}

async function newPage(): Promise<{ page: Page; urls: string[]; errors: string[] }> {
  const ctx = await userContext(browser, server, {});
  const page = await ctx.newPage();
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, urls, errors };
}

describe('video and 3D releases', () => {
  it('a video release: poster, native controls, nothing downloaded before play; Range answered', async () => {
    const video = await uploadMedia(mp4Bytes(), 'clip.mp4');
    setMedia(2, 'video', video.key);
    const { page, urls } = await newPage();
    expect((await goto(page, `${server.base}/projects/detail/2`))!.status()).toBe(200);
    const v = page.getByTestId('media-video');
    await v.waitFor();
    expect(await v.getAttribute('src')).toBe(video.url);
    expect(await v.getAttribute('preload')).toBe('none');
    expect(await v.getAttribute('poster')).toBeTruthy();
    expect(await v.evaluate((el: HTMLVideoElement) => [el.controls, el.playsInline])).toEqual([true, true]);
    expect(urls.some((u) => u.includes(video.key))).toBe(false);
    expect(urls.some((u) => /model-viewer/.test(u))).toBe(false);
    const ranged = await page.evaluate(async (u) => {
      const r = await fetch(u, { headers: { range: 'bytes=0-15' } });
      return { status: r.status, range: r.headers.get('content-range'), type: r.headers.get('content-type'), len: (await r.arrayBuffer()).byteLength };
    }, video.url);
    expect(ranged).toMatchObject({ status: 206, type: 'video/mp4', len: 16 });
    expect(ranged.range).toMatch(/^bytes 0-15\/\d+$/);
  });

  it('a 3D release: the poster first, then <model-viewer> from its own chunk loading the GLB', async () => {
    const model = await uploadMedia(triangleGlb(), 'model.glb');
    setMedia(3, 'model', model.key);
    const { page, urls, errors } = await newPage();
    expect((await goto(page, `${server.base}/projects/detail/3`))!.status()).toBe(200);
    const box = page.getByTestId('media-model');
    await box.waitFor();
    await box.scrollIntoViewIfNeeded();
    await page.locator('model-viewer').waitFor({ state: 'attached' });
    // React sets `src` as the defined element's property
    expect(await page.locator('model-viewer').evaluate((el) => (el as unknown as { src: string }).src)).toBe(model.url);
    await expect.poll(() => urls.some((u) => /\/assets\/model-viewer-[\w-]+\.js$/.test(u))).toBe(true);
    // the custom element is defined by the lazily imported module and fetches the model
    expect(await page.evaluate(() => customElements.get('model-viewer') !== undefined)).toBe(true);
    await expect.poll(() => urls.some((u) => u.includes(model.key))).toBe(true);
    await expect.poll(() => page.locator('model-viewer').evaluate((el) => (el as unknown as { loaded: boolean }).loaded)).toBe(true);
    // no CSP refusal (the viewer's WebAssembly decoder needs 'wasm-unsafe-eval') or other page error
    expect(errors).toEqual([]);
  });
});
