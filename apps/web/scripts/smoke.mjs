/**
 * SSR smoke check against the production build (run `react-router build` first):
 *   node scripts/smoke.mjs
 * Imports build/server/index.js the way apps/server does (createRequestHandler from react-router)
 * and checks status codes, the 404 text, the language cookie, redirects and the initial JS size.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createRequestHandler } from 'react-router';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = await import(pathToFileURL(path.join(root, 'build/server/index.js')).href);
const handle = createRequestHandler(build, 'production');
const get = (url, headers = {}) => handle(new Request(`http://x${url}`, { headers }));
let failures = 0;
async function check(name, fn) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures++;
    console.log(`FAIL ${name}\n     ${err.message}`);
  }
}

await check('/ → 200, zh by default, hero and header', async () => {
  const res = await get('/');
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<html lang="zh-CN"/);
  assert.match(html, /data-testid="home-hero"/);
  assert.match(html, /data-testid="site-header"/);
  assert.match(html, /<title>首页 - CFX Art<\/title>/);
  assert.match(html, /name="description"/);
});

await check('/nope → 404 with the not-found text, 抱歉！ and 返回首页', async () => {
  const res = await get('/nope');
  assert.equal(res.status, 404);
  const html = await res.text();
  assert.match(html, /This page could not be found/);
  assert.match(html, /抱歉！/);
  assert.match(html, /返回首页/);
  assert.match(html, /data-testid="error-status"[^>]*>404</);
  assert.match(html, /data-testid="site-header"/, 'the 404 renders inside the layout');
});

await check('/nope in English → 404, "Back to home"', async () => {
  const res = await get('/a/b/c', { cookie: 'lang=en' });
  assert.equal(res.status, 404);
  const html = await res.text();
  assert.match(html, /This page could not be found/);
  assert.match(html, /Back to home/);
  assert.match(html, /<html lang="en"/);
});

await check('client data request for an unknown route → 404', async () => {
  const res = await get('/nope.data');
  assert.equal(res.status, 404);
});

await check('unsupported lang cookie → 404 from the root loader', async () => {
  const res = await get('/', { cookie: 'lang=fr' });
  assert.equal(res.status, 404);
  assert.match(await res.text(), /This page could not be found/);
});

await check('lang=en renders English', async () => {
  const res = await get('/projects', { cookie: 'other=1; lang=en' });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /Coming soon/);
  assert.match(html, /<title>Releases - CFX Art<\/title>/);
});

await check('/assets redirects to /', async () => {
  const res = await get('/assets');
  assert.equal(res.status, 302);
  assert.equal(res.headers.get('location'), '/');
});

const pages = [
  '/projects', '/projects/detail', '/projects/detail/1', '/projects/dropping/2', '/projects/mint/3', '/assets/9', '/sales', '/news',
  '/news/5', '/mint', '/object-buy', '/object-buy/conponents/card', '/pay', '/project-enter', '/creator', '/creator/abc',
  '/download', '/search-object?str=abc', '/account/anything/here', '/personal-center', '/personal-center/txn-details',
  '/personal-center/my-sale', '/personal-center/account-settings', '/personal-center/payment', '/personal-center/payment-management',
  '/personal-center/paymentYibao', '/personal-center/message-center', '/personal-center/follow', '/personal-center/invite',
  '/personal-center/contact-service', '/personal-center/make', '/personal-center/conmponents/alipay',
  '/personal-center/conmponents/pamentSuccess', '/personal-center/conmponents/Payment2', '/personal-center/conmponents/Payment3',
  '/personal-center/conmponents/PaymentCard',
  ...['1-1', '1-2', '2-1', '2-2', '3-1', '3-2', '4-1', '4-2', '5-1'].map((p) => `/help/part${p}`),
];
await check(`${pages.length} spec routes → 200`, async () => {
  for (const p of pages) {
    const res = await get(p);
    assert.equal(res.status, 200, `${p} → ${res.status}`);
    await res.text();
  }
});

await check('help page has real content in both languages', async () => {
  const zh = await (await get('/help/part1-1')).text();
  assert.match(zh, /实名认证/);
  assert.match(zh, /认证步骤/);
  const en = await (await get('/help/part5-1', { cookie: 'lang=en' })).text();
  assert.match(en, /What is consignment\?/);
});

await check('unknown nested paths → 404', async () => {
  for (const p of ['/help/part9-9', '/personal-center/unknown', '/projects/detail/1/extra']) {
    assert.equal((await get(p)).status, 404, p);
  }
});

await check('initial JS of / ≤ 150 KiB gzip', async () => {
  const html = await (await get('/')).text();
  const files = new Set([...html.matchAll(/(?:href|src|import)\s*=?\s*"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  for (const m of html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g)) files.add(m[1]);
  let total = 0;
  for (const f of files) total += gzipSync(fs.readFileSync(path.join(root, 'build/client', f))).length;
  const kib = total / 1024;
  console.log(`     ${files.size} scripts, ${kib.toFixed(1)} KiB gzip`);
  assert.ok(kib <= 150, `initial JS is ${kib.toFixed(1)} KiB gzip`);
});

if (failures) {
  console.log(`\n${failures} check(s) failed`);
  process.exit(1);
}
console.log('\nall SSR smoke checks passed');
