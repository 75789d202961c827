/**
 * SSR smoke check of the production build against the real server (run `npm run build` first):
 *   node scripts/smoke.mjs                         starts apps/server (CHAIN=off, demo data, fresh DATA_DIR) on a free port
 *   SMOKE_BASE=http://127.0.0.1:3000 node scripts/smoke.mjs    uses a server that is already running (with demo data)
 *   SMOKE_ONLY=js node scripts/smoke.mjs           only the initial-JS table
 *
 * Checks status codes, the 404 text, the language cookie and redirects, then prints the initial JS of every public page:
 * the gzip size (zlib level 6) of the scripts the server-rendered HTML makes the browser load before hydration —
 * `<link rel="modulepreload">`, `<script src>` and the `import … from "/assets/…"` of the inline module script.
 * Fails when a page is above 150 KiB gzip (SMOKE_JS_LIMIT_KIB).
 * Also prints, per page, the loader data embedded in the HTML (the inline `__reactRouterContext` scripts:
 * the root's catalog namespaces plus the route's data) in bytes, and the catalog strings part of it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(root, '../..');
const clientDir = path.join(root, 'build/client');
const LIMIT_KIB = Number(process.env.SMOKE_JS_LIMIT_KIB ?? 150);
const onlyJs = process.env.SMOKE_ONLY === 'js';

// 1. The server: SMOKE_BASE, or the real one started here.
let base = process.env.SMOKE_BASE?.replace(/\/$/, '');
let server;
let dataDir;
if (!base) {
  if (!fs.existsSync(path.join(root, 'build/server/index.js'))) {
    console.error('no build: run `npm run build` first');
    process.exit(1);
  }
  const port = await new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
  base = `http://127.0.0.1:${port}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-smoke-'));
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  server = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'apps/server/src/main.ts')], {
    cwd: repo,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, CHAIN: 'off', DEMO_DATA: '1', DEV_MODE: '1', NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    stdio: ['ignore', out, out],
  });
  const t0 = Date.now();
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${fs.readFileSync(logFile, 'utf8')}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() - t0 > 120_000) throw new Error('server did not answer /healthz in 120 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}
/**
 * Bytes of the inline scripts that carry loader data, and of the catalog strings in them: the turbo-stream
 * payload is a flat JSON array inside a JS string, so every string is a `\\"…\\"` item; the catalog's
 * are those inside the root's `i18n` (or, before it, `messages`) value — counted as the bytes from that
 * key to the next top-level root key the root loader sends (`devMode`, `nonce`) or the route data.
 */
function embeddedData(html) {
  let data = 0;
  let strings = 0;
  for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = m[1];
    if (!/__reactRouterContext|streamController/.test(body)) continue;
    data += Buffer.byteLength(body);
    const start = body.search(/\\"(i18n|messages)\\"/);
    if (start < 0) continue;
    // The catalog's string items: from the key to the route data (`\"routes/` or `\"layouts/` of the next match).
    const rest = body.slice(start);
    const end = rest.search(/\\"(routes|layouts)\//);
    strings += Buffer.byteLength(end < 0 ? rest : rest.slice(0, end));
  }
  return { data, strings };
}

function stop() {
  if (server && server.exitCode === null) server.kill('SIGTERM');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
process.once('SIGINT', () => {
  stop();
  process.exit(130);
});

const get = (url, headers = {}) => fetch(base + url, { headers, redirect: 'manual' });
const api = async (method, p, body) => {
  const res = await fetch(`${base}/mvapi/public${p}`, method === 'GET' ? {} : { method, headers: { 'content-type': 'application/json', channel: 'pc' }, body: JSON.stringify(body ?? {}) });
  const j = await res.json();
  if (!j.data) throw new Error(`${p}: ${JSON.stringify(j).slice(0, 200)}`);
  return j.data;
};

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

try {
  // Ids of the demo catalogue.
  const releases = (await api('POST', '/goods/v1/project/index', { pageNum: 1, pageSize: 50 })).list;
  const release = releases.find((r) => r.status === 'on_sale') ?? releases[0];
  const upcoming = releases.find((r) => r.status === 'upcoming') ?? release;
  const goods = (await api('POST', '/goods/v1/list/index', { pageNum: 1, pageSize: 1 })).list[0]
    ?? (await api('POST', '/goods/v1/list/index', { pageNum: 1, pageSize: 1, status: 'all' })).list[0];
  const news = (await api('GET', '/official/news/list?pageNum=1&pageSize=1')).list[0];

  if (!onlyJs) {
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
      assert.match(html, /<html lang="en"/);
      assert.match(html, /<title>Releases - CFX Art<\/title>/);
    });

    await check('interpolation in the server-rendered HTML', async () => {
      // The markup only: the root loader's catalog (with its {{var}} templates) is in the inline scripts.
      const markup = (html) => html.replace(/<script\b[\s\S]*?<\/script>/g, '');
      const zhHtml = markup(await (await get(`/projects/detail/${release.id}`)).text());
      assert.doesNotMatch(zhHtml, /\{\{\w+\}\}/, 'no {{var}} left in the zh page');
      const enHtml = markup(await (await get(`/projects/detail/${release.id}`, { cookie: 'lang=en' })).text());
      assert.doesNotMatch(enHtml, /\{\{\w+\}\}/, 'no {{var}} left in the en page');
      assert.match(zhHtml, /©\s*\d{4}-\d{4}/, 'footer copyright years');
    });

    await check('redirects: /assets → /, /projects/detail → /projects, /creator → /', async () => {
      for (const [from, to] of [['/assets', '/'], ['/projects/detail', '/projects'], ['/projects/dropping', '/projects'], ['/creator', '/']]) {
        const res = await get(from);
        assert.ok(res.status >= 300 && res.status < 400, `${from} → ${res.status}`);
        assert.equal(new URL(res.headers.get('location'), base).pathname, to, from);
      }
    });

    const pages = [
      '/projects', `/projects/detail/${release.id}`, `/projects/dropping/${upcoming.id}`, '/projects/mint/3', `/assets/${goods.id}`, '/sales', '/news',
      `/news/${news.id}`, '/mint', '/object-buy', '/object-buy/conponents/card', '/pay', '/project-enter', `/creator/${release.creator.accountId}`,
      '/download', '/search-object?str=abc', '/account/login', '/account/register?inviteCode=AB12CD', '/account/forgot-password', '/personal-center', '/personal-center/txn-details',
      '/personal-center/my-sale', '/personal-center/account-settings', '/personal-center/payment', '/personal-center/payment-management',
      '/personal-center/paymentYibao', '/personal-center/message-center', '/personal-center/follow', '/personal-center/invite',
      '/personal-center/contact-service', '/personal-center/make', '/personal-center/conmponents/alipay',
      '/personal-center/conmponents/pamentSuccess', '/personal-center/conmponents/Payment2', '/personal-center/conmponents/Payment3',
      '/personal-center/conmponents/PaymentCard',
      ...['1-1', '1-2', '2-1', '2-2', '3-1', '3-2', '4-1', '4-2', '5-1'].map((p) => `/help/part${p}`),
    ];
    await check(`${pages.length} spec routes → 200`, async () => {
      const bad = [];
      for (const p of pages) {
        const res = await get(p);
        await res.text();
        if (res.status !== 200) bad.push(`${p} → ${res.status}`);
      }
      assert.deepEqual(bad, []);
    });

    await check('help page has real content in both languages', async () => {
      const zh = await (await get('/help/part1-1')).text();
      assert.match(zh, /实名认证/);
      assert.match(zh, /认证步骤/);
      const en = await (await get('/help/part5-1', { cookie: 'lang=en' })).text();
      assert.match(en, /What is consignment\?/);
    });

    await check('LCP image preloaded with fetchpriority=high, stylesheet inlined (/, release, dropping, collectible, news)', async () => {
      const lcpPages = [['/', true], [`/projects/detail/${release.id}`, true], [`/projects/dropping/${upcoming.id}`, true], [`/assets/${goods.id}`, true], [`/news/${news.id}`, false]];
      for (const [p, hasImage] of lcpPages) {
        const html = await (await get(p)).text();
        const head = html.slice(0, html.indexOf('</head>'));
        assert.ok((/<style id="app-css">([\s\S]*?)<\/style>/.exec(head)?.[1].length ?? 0) > 1000, `${p}: the stylesheet is inlined`);
        assert.doesNotMatch(head, /rel="stylesheet"/, `${p}: no render-blocking stylesheet link`);
        const high = [...html.matchAll(/<img [^>]*fetchPriority="high"[^>]*>/g)].map((m) => m[0]);
        if (!hasImage && !high.length) continue;
        assert.equal(high.length, 1, `${p}: one image with fetchpriority=high, found ${high.length}`);
        const img = high[0];
        assert.doesNotMatch(img, /loading="lazy"/, `${p}: the LCP image is not lazy`);
        const srcSet = /srcSet="([^"]+)"/.exec(img)?.[1];
        assert.ok(srcSet && /fmt=webp \d+w/.test(srcSet), `${p}: the LCP image has WebP renditions in srcset: ${img}`);
        const preload = [...head.matchAll(/<link rel="preload" as="image"[^>]*>/g)].map((m) => m[0]).find((l) => l.includes(`imageSrcSet="${srcSet}"`));
        assert.ok(preload, `${p}: <link rel="preload" as="image" imagesrcset> for the LCP image in <head>`);
        assert.match(preload, /fetchPriority="high"/, `${p}: the preload has fetchpriority=high`);
        assert.match(preload, /imageSizes="[^"]+"/, `${p}: the preload has imagesizes`);
        // The rendition it names is served as WebP.
        const first = srcSet.split(',')[0].trim().split(' ')[0].replaceAll('&amp;', '&');
        const res = await get(first);
        assert.equal(res.status, 200, first);
        assert.equal(res.headers.get('content-type'), 'image/webp', first);
        await res.arrayBuffer();
      }
    });

    await check('unknown nested paths and ids → 404', async () => {
      for (const p of ['/help/part9-9', '/personal-center/unknown', '/account/nope', '/account/anything/here', `/projects/detail/${release.id}/extra`, '/projects/detail/999999', '/assets/999999', '/news/999999']) {
        const res = await get(p);
        await res.text();
        assert.equal(res.status, 404, p);
      }
    });
  }

  // 2. Initial JS per public page.
  const publicPages = [
    '/', '/projects', `/projects/detail/${release.id}`, `/projects/dropping/${upcoming.id}`, `/assets/${goods.id}`, '/news', `/news/${news.id}`,
    `/creator/${release.creator.accountId}`, `/search-object?str=${encodeURIComponent(release.name.slice(0, 2))}`, '/download', '/sales', '/help/part1-1',
    '/account/login', '/account/register',
  ];
  const gzCache = new Map();
  const gzipOf = async (file) => {
    if (!gzCache.has(file)) {
      const local = path.join(clientDir, file);
      // The build on disk when the server serves it; otherwise what the server sends.
      const buf = !process.env.SMOKE_BASE && fs.existsSync(local)
        ? fs.readFileSync(local)
        : Buffer.from(await (await fetch(base + file)).arrayBuffer());
      gzCache.set(file, gzipSync(buf).length);
    }
    return gzCache.get(file);
  };
  const rows = [];
  for (const p of publicPages) {
    const res = await get(p);
    const html = await res.text();
    const files = new Set();
    for (const m of html.matchAll(/<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/g)) files.add(m[1]);
    for (const m of html.matchAll(/<script[^>]* src="(\/assets\/[^"]+\.js)"/g)) files.add(m[1]);
    for (const m of html.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"(\/assets\/[^"]+\.js)"/g)) files.add(m[1]);
    // The modulepreload list the inline module script adds after the first paint (app/lib/defer-scripts.server.ts).
    for (const f of JSON.parse(/const modulePreloads = (\[[^\]]*\]);/.exec(html)?.[1] ?? '[]')) files.add(f);
    let gz = 0;
    let largest = ['', 0];
    for (const f of files) {
      const size = await gzipOf(f);
      gz += size;
      if (size > largest[1] && !/entry\.client|chunk-[A-Z0-9]+-/.test(f)) largest = [f, size];
    }
    rows.push({ page: p, status: res.status, scripts: files.size, kib: gz / 1024, largest });
  }
  const w = Math.max(...rows.map((r) => r.page.length));
  console.log(`\ninitial JS (gzip, level 6) — limit ${LIMIT_KIB} KiB`);
  console.log(`${'page'.padEnd(w)}  status  scripts  KiB gzip  largest app chunk`);
  for (const r of rows) {
    const flag = r.kib > LIMIT_KIB ? '  ← over the limit' : '';
    console.log(`${r.page.padEnd(w)}  ${String(r.status).padStart(6)}  ${String(r.scripts).padStart(7)}  ${r.kib.toFixed(1).padStart(8)}  ${path.basename(r.largest[0])} ${(r.largest[1] / 1024).toFixed(1)}${flag}`);
  }
  // 3. Loader data embedded in the HTML (catalog namespaces of app/i18n/namespaces.ts + route data).
  const dataPages = ['/', `/projects/detail/${release.id}`, '/personal-center', '/admin/login', ...publicPages.filter((p) => !['/', `/projects/detail/${release.id}`].includes(p))];
  console.log('\nloader data embedded in the HTML (zh / en; bytes of the inline data scripts, and of the catalog strings in them)');
  console.log(`${'page'.padEnd(w)}  status  zh data B  zh strings B  en data B  en strings B`);
  for (const p of dataPages) {
    const cells = [];
    let status = 0;
    for (const lang of ['zh', 'en']) {
      const res = await get(p, { cookie: `lang=${lang}` });
      status = res.status;
      const { data, strings } = embeddedData(await res.text());
      cells.push(String(data).padStart(9), String(strings).padStart(12));
    }
    console.log(`${p.padEnd(w)}  ${String(status).padStart(6)}  ${cells[0]}  ${cells[1]}  ${cells[2]}  ${cells[3]}`);
  }

  await check(`initial JS of every public page ≤ ${LIMIT_KIB} KiB gzip`, async () => {
    const bad = rows.filter((r) => r.status !== 200 || r.kib > LIMIT_KIB).map((r) => `${r.page} (${r.status}): ${r.kib.toFixed(1)} KiB`);
    assert.deepEqual(bad, []);
  });
} finally {
  stop();
}

if (failures) {
  console.log(`\n${failures} check(s) failed`);
  process.exit(1);
}
console.log('\nall SSR smoke checks passed');
