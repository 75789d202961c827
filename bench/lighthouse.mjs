// Lighthouse 12 (npm) with Debian chromium on the server-rendered catalog and content pages:
// `/`, a release (/projects/detail/:id), its dropping page (/projects/dropping/:id), a collectible (/assets/:id) and a
// news item (/news/:id), mobile (Lighthouse's default config) and desktop (core/config/desktop-config.js).
// Targets: performance ≥ 97 mobile (issue "mobile speed"), ≥ 98 desktop; initial JS ≤ 150 KiB gzip.
//
// Run: cd bench && node lighthouse.mjs      (npm run bench:lighthouse -w bench)
// Env: BENCH_RUNS=n     runs per URL and form factor (default 3); the reported score is the median of the runs'
//                       performance scores, the metrics those of Lighthouse's median run (computeMedianRun: closest
//                       to the median FCP and TTI). Every run is printed with the 1-minute load average at its start.
//      BENCH_FORMS=mobile  form factors, comma-separated (default mobile,desktop)
//      BENCH_RETRIES=n  a run that ends in a Lighthouse runtime error (NO_NAVSTART, NO_FCP, PROTOCOL_TIMEOUT, …) or
//                       throws (Chrome did not start, the protocol dropped) is run again, up to n times (default 3);
//                       the retries are counted in the report
//      BENCH_BUILD=1    rebuild apps/web first (default: build only when apps/web/build is missing)
//      CHROME_PATH      default /usr/bin/chromium
//      BENCH_OUT=dir    where the JSON reports go (default: a temp dir, printed at the end)
//      BENCH_GZIP_PROXY=1  what-if: Lighthouse loads the pages through a gzip reverse proxy in this process (like
//                       nginx `gzip on` or @fastify/compress in front of the app); the app itself sends no Content-Encoding
//
// The server is the real one (`node --import tsx apps/server/src/main.ts`, NODE_ENV=production, SQLite in a fresh
// DATA_DIR, demo data seeded, CHAIN=off). The web build is copied to bench/.tmp first (WEB_BUILD_DIR), so a rebuild
// by someone else during the run cannot pull assets from under the server. "JS transfer" is what went over the
// wire, "JS gzip" the same scripts gzipped here (zlib level 6).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import * as chromeLauncher from 'chrome-launcher';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const cores = os.cpus().length;
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const retries = Math.max(0, Number(process.env.BENCH_RETRIES ?? 3));
const forms = (process.env.BENCH_FORMS ?? 'mobile,desktop').split(',').map((x) => x.trim()).filter((x) => x === 'mobile' || x === 'desktop');
const load1 = () => os.loadavg()[0];
const fmtLoad = (x) => x.toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const outDir = process.env.BENCH_OUT ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-lighthouse-'));
fs.mkdirSync(outDir, { recursive: true });
const API = '/mvapi/public';
const TARGET = { mobile: 97, desktop: 98 };
const CHROME_FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const tmpDirs = [];
const tmp = (prefix) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(d);
  return d;
};

// 1. The web build: build if missing (or asked), then snapshot it.
const webBuild = path.join(repo, 'apps/web/build');
if (process.env.BENCH_BUILD === '1' || !fs.existsSync(path.join(webBuild, 'server/index.js'))) {
  console.log('building apps/web …');
  execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repo, stdio: 'inherit' });
}
// Inside the repo (bench/.tmp is git-ignored) so the server build resolves react from the root node_modules,
// with a node_modules link to apps/web/node_modules for react-router as apps/web/build would.
fs.mkdirSync(path.join(here, '.tmp'), { recursive: true });
const buildSnap = fs.mkdtempSync(path.join(here, '.tmp', 'lh-build-'));
tmpDirs.push(buildSnap);
fs.cpSync(webBuild, buildSnap, { recursive: true });
fs.symlinkSync(path.join(repo, 'apps/web/node_modules'), path.join(buildSnap, 'node_modules'), 'dir');
const buildTime = fs.statSync(path.join(webBuild, 'server/index.js')).mtime;

// 2. The real server on a free port with a fresh data dir.
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = tmp('cfx-lh-data-');
const serverLog = path.join(outDir, 'server.log');
const logFd = fs.openSync(serverLog, 'w');
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: repo,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, CHAIN: 'off', DEV_MODE: '1', NODE_ENV: 'production', WEB_BUILD_DIR: buildSnap, LOG_LEVEL: 'warn' },
  stdio: ['ignore', logFd, logFd],
});
let serverExited = false;
server.once('exit', () => (serverExited = true));

let chrome;
let proxy;
function cleanup() {
  try { chrome?.kill(); } catch { /* already gone */ }
  if (!serverExited) server.kill('SIGTERM');
  proxy?.close();
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
  try { fs.rmdirSync(path.join(here, '.tmp')); } catch { /* not empty or absent: left as is */ }
}
process.once('SIGINT', () => { cleanup(); process.exit(130); });

try {
  const t0 = Date.now();
  for (;;) {
    if (serverExited) throw new Error(`server exited, see ${serverLog}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() - t0 > 180_000) throw new Error('server did not answer /healthz in 180 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  console.log(`server up on ${base} in ${Date.now() - t0} ms (web build of ${buildTime.toISOString()})`);
  // What the browser loads: the server itself, or (BENCH_GZIP_PROXY=1) a gzip proxy in front of it.
  let origin = base;
  if (process.env.BENCH_GZIP_PROXY === '1') {
    proxy = await gzipProxy(port);
    origin = `http://127.0.0.1:${proxy.address().port}`;
    console.log(`what-if: pages loaded through a gzip proxy on ${origin}`);
  }

  // 3. Ids from the API.
  const call = async (method, p, body) => {
    const res = await fetch(base + API + p, method === 'GET' ? {} : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
    const j = await res.json();
    if (!j.data) throw new Error(`${p}: ${JSON.stringify(j).slice(0, 200)}`);
    return j.data;
  };
  const release = (await call('POST', '/goods/v1/project/index', { pageNum: 1, pageSize: 1 })).list[0];
  const goods = (await call('POST', '/goods/v1/list/index', { pageNum: 1, pageSize: 1 })).list[0]
    ?? (await call('POST', '/goods/v1/list/index', { pageNum: 1, pageSize: 1, status: 'all' })).list[0];
  const news = (await call('GET', '/official/news/list?pageNum=1&pageSize=1')).list[0];
  const pages = [
    { name: 'home', path: '/' },
    { name: 'release', path: `/projects/detail/${release.id}` },
    { name: 'dropping', path: `/projects/dropping/${release.id}` },
    { name: 'collectible', path: `/assets/${goods.id}` },
    { name: 'news', path: `/news/${news.id}` },
  ];

  // 4. Initial JS the way apps/web/scripts/smoke.mjs counts it: modulepreload/script/import() of /assets/*.js in the HTML.
  const initialJs = {};
  for (const p of pages) {
    const res = await fetch(base + p.path);
    if (res.status !== 200) throw new Error(`${p.path} → ${res.status}`);
    const html = await res.text();
    const files = new Set([...html.matchAll(/(?:href|src|import)\s*=?\s*"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
    for (const m of html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g)) files.add(m[1]);
    // The modulepreload list the inline module script adds after the first paint (apps/web/app/lib/defer-scripts.server.ts).
    for (const f of JSON.parse(/const modulePreloads = (\[[^\]]*\]);/.exec(html)?.[1] ?? '[]')) files.add(f);
    let gz = 0;
    let raw = 0;
    for (const f of files) {
      const buf = fs.readFileSync(path.join(buildSnap, 'client', f));
      raw += buf.length;
      gz += gzipSync(buf).length;
    }
    initialJs[p.name] = { files: files.size, raw, gz, htmlGz: gzipSync(html).length, htmlRaw: Buffer.byteLength(html) };
  }

  // 5. Lighthouse.
  const gzCache = new Map();
  const gzipOf = async (url) => {
    if (!gzCache.has(url)) {
      const u = new URL(url);
      const body = Buffer.from(await (await fetch(base + u.pathname + u.search, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
      gzCache.set(url, gzipSync(body).length);
    }
    return gzCache.get(url);
  };
  async function lhOnce(url, formFactor) {
    const userDataDir = tmp('cfx-lh-chrome-');
    try {
      chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, userDataDir, logLevel: 'silent' });
      const r = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES }, formFactor === 'desktop' ? desktopConfig : undefined);
      if (!r?.lhr) throw new Error('no result');
      if (r.lhr.runtimeError) throw new Error(`${r.lhr.runtimeError.code} ${r.lhr.runtimeError.message}`);
      if (typeof r.lhr.categories.performance?.score !== 'number') throw new Error('no performance score');
      return r.lhr;
    } finally {
      try { chrome?.kill(); } catch { /* already gone */ }
      chrome = undefined;
      fs.rmSync(userDataDir, { recursive: true, force: true });
    }
  }
  // A flaky run (NO_NAVSTART, NO_FCP, a protocol timeout, Chrome not starting) is run again, at most `retries` times.
  let retried = 0;
  async function lh(url, formFactor) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await lhOnce(url, formFactor);
      } catch (err) {
        if (attempt >= retries) throw new Error(`${url} ${formFactor}: ${attempt + 1} runs failed, the last: ${err.message}`, { cause: err });
        retried++;
        console.log(`  ${formFactor} ${url}: run failed (${String(err.message).slice(0, 160)}), load ${fmtLoad(load1())}; retrying (${attempt + 1}/${retries})`);
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  // Warm-up: SSR of every page over HTTP and every image it names (src, srcset: the WebP renditions are
  // rendered on first request and then served from the server's cache, as for any visitor after the
  // first), then one unrecorded Lighthouse run.
  const warmed = new Set();
  for (const p of pages) {
    let html = '';
    for (let i = 0; i < 5; i++) html = await (await fetch(origin + p.path)).text();
    const urls = new Set();
    for (const m of html.matchAll(/\s(?:src|srcSet|imageSrcSet|href)="([^"]+)"/g)) {
      for (const part of m[1].replaceAll('&amp;', '&').split(',')) {
        const u = part.trim().split(/\s+/)[0];
        if (/^\/(mvapi\/public\/official\/image\/|media\/)/.test(u)) urls.add(u);
      }
    }
    for (const u of urls) {
      if (warmed.has(u)) continue;
      warmed.add(u);
      await (await fetch(origin + u)).arrayBuffer();
    }
  }
  console.log(`warm-up: ${warmed.size} images requested once`);
  await lh(origin + '/', 'mobile');

  const rows = [];
  for (const formFactor of forms) {
    for (const p of pages) {
      const lhrs = [];
      const loads = [];
      for (let i = 0; i < runs; i++) {
        const load = load1();
        const lhr = await lh(origin + p.path, formFactor);
        lhrs.push(lhr);
        loads.push(load);
        if (runs > 1) fs.writeFileSync(path.join(outDir, `${formFactor}-${p.name}-run${i + 1}.json`), JSON.stringify(lhr));
        process.stdout.write(`  ${formFactor} ${p.path} run ${i + 1}/${runs}: performance ${Math.round(lhr.categories.performance.score * 100)}, LCP ${(lhr.audits['largest-contentful-paint'].numericValue / 1000).toFixed(2)} s (load ${fmtLoad(load)})\n`);
      }
      const lhr = runs > 1 ? computeMedianRun(lhrs) : lhrs[0];
      const file = path.join(outDir, `${formFactor}-${p.name}.json`);
      fs.writeFileSync(file, JSON.stringify(lhr));
      const a = lhr.audits;
      const scripts = (a['network-requests']?.details?.items ?? []).filter((it) => it.resourceType === 'Script');
      let jsGz = 0;
      for (const s of scripts) jsGz += await gzipOf(s.url);
      rows.push({
        formFactor,
        page: p,
        file,
        perfRuns: lhrs.map((x) => Math.round(x.categories.performance.score * 100)),
        perfMedian: median(lhrs.map((x) => Math.round(x.categories.performance.score * 100))),
        loads,
        scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(lhr.categories[c].score * 100)])),
        fcp: a['first-contentful-paint'].numericValue,
        lcp: a['largest-contentful-paint'].numericValue,
        tbt: a['total-blocking-time'].numericValue,
        cls: a['cumulative-layout-shift'].numericValue,
        si: a['speed-index'].numericValue,
        scripts: scripts.length,
        jsTransfer: scripts.reduce((s, x) => s + (x.transferSize ?? 0), 0),
        jsGz,
        totalBytes: a['total-byte-weight'].numericValue,
        benchmarkIndex: lhr.environment.benchmarkIndex,
        warnings: lhr.runWarnings,
        issues: topIssues(lhr),
        lcpElement: a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet,
        lcpPhases: (a['largest-contentful-paint-element']?.details?.items?.[1]?.items ?? []).map((x) => `${x.phase} ${Math.round(x.timing)} ms`).join(', ') || '—',
        failing: Object.fromEntries(CATEGORIES.filter((c) => c !== 'performance').map((c) => [c, failingAudits(lhr, c)])),
      });
    }
  }

  // 6. Report.
  const kib = (b) => (b / 1024).toFixed(1);
  const s = (ms) => (ms / 1000).toFixed(2);
  console.log(`\nLighthouse ${rows[0] && JSON.parse(fs.readFileSync(rows[0].file)).lighthouseVersion}, ${chromePath} (${execFileSync(chromePath, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()}), ` +
    `${runs} run(s) per URL and form factor${runs > 1 ? ' (median score; metrics of the median run)' : ''}${proxy ? ', THROUGH A GZIP PROXY (what-if)' : ''}, ` +
    `${retried} failed run(s) retried, load average at the end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} (${cores} cores)`);
  console.log(`pages: ${pages.map((p) => p.path).join(', ')}\n`);
  console.log('| form factor | page | performance, median (runs @ 1-min load average) | target | a11y | best practices | SEO | FCP | LCP | TBT | CLS | SI | JS transfer | JS gzip | benchmarkIndex |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const t = TARGET[r.formFactor];
    const m = r.perfMedian;
    const perf = `${m >= t ? '' : '**'}${m}${m >= t ? '' : '**'} (${r.perfRuns.map((x, i) => `${x} @${fmtLoad(r.loads[i])}`).join(', ')})`;
    console.log(`| ${r.formFactor} | \`${r.page.path}\` | ${perf} | ≥ ${t} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.scores.seo} | ${s(r.fcp)} s | ${s(r.lcp)} s | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${s(r.si)} s | ${r.scripts} files, ${kib(r.jsTransfer)} KiB | ${kib(r.jsGz)} KiB | ${Math.round(r.benchmarkIndex)} |`);
  }
  console.log('\nInitial JS (smoke.mjs method: /assets/*.js referenced by the SSR HTML), target ≤ 150 KiB gzip:');
  console.log('| page | scripts | raw | gzip | HTML raw / gzip |');
  console.log('|---|---|---|---|---|');
  for (const p of pages) {
    const j = initialJs[p.name];
    console.log(`| \`${p.path}\` | ${j.files} | ${kib(j.raw)} KiB | ${j.gz / 1024 <= 150 ? '' : '**'}${kib(j.gz)} KiB${j.gz / 1024 <= 150 ? '' : '**'} | ${kib(j.htmlRaw)} / ${kib(j.htmlGz)} KiB |`);
  }
  console.log('\nTop performance opportunities / diagnostics (by estimated savings):');
  for (const r of rows) {
    const miss = r.perfMedian < TARGET[r.formFactor];
    console.log(`- ${r.formFactor} \`${r.page.path}\`${miss ? ' (MISS)' : ''}; LCP element: ${r.lcpElement ?? '—'}; LCP phases: ${r.lcpPhases}`);
    for (const i of r.issues.slice(0, miss ? 5 : 3)) console.log(`    - ${i}`);
  }
  console.log('\nFailing audits in the other categories:');
  for (const r of rows) {
    const f = Object.entries(r.failing).filter(([, v]) => v.length).map(([c, v]) => `${c}: ${v.join('; ')}`);
    if (f.length) console.log(`- ${r.formFactor} \`${r.page.path}\`: ${f.join(' | ')}`);
  }
  const warn = [...new Set(rows.flatMap((r) => r.warnings ?? []))];
  if (warn.length) console.log(`\nLighthouse warnings:\n${warn.map((w) => `- ${w}`).join('\n')}`);
  console.log(`\nJSON reports: ${outDir}`);
} finally {
  cleanup();
}

/** Failing performance audits (diagnostics / opportunities), biggest estimated savings first. */
function topIssues(lhr) {
  const refs = lhr.categories.performance.auditRefs.filter((r) => r.group === 'diagnostics' || r.group === 'load-opportunities');
  const out = [];
  for (const ref of refs) {
    const a = lhr.audits[ref.id];
    if (!a || a.score === null || a.scoreDisplayMode === 'notApplicable' || a.scoreDisplayMode === 'manual') continue;
    const ms = a.metricSavings ?? {};
    const savedMs = (ms.LCP ?? 0) + (ms.FCP ?? 0) + (ms.TBT ?? 0);
    const failing = a.scoreDisplayMode === 'informative' ? savedMs > 0 || (ms.CLS ?? 0) > 0 : a.score < 0.9;
    if (!failing) continue;
    const savings = [ms.FCP && `FCP −${Math.round(ms.FCP)} ms`, ms.LCP && `LCP −${Math.round(ms.LCP)} ms`, ms.TBT && `TBT −${Math.round(ms.TBT)} ms`, ms.CLS && `CLS −${ms.CLS.toFixed(3)}`]
      .filter(Boolean).join(', ');
    const bytes = a.details?.overallSavingsBytes ? `${Math.round(a.details.overallSavingsBytes / 1024)} KiB` : '';
    if (ref.id === 'largest-contentful-paint-element') continue; // its phases are printed with the LCP element
    const items = (a.details?.items ?? []).filter((it) => typeof it.url === 'string').slice(0, 3)
      .map((it) => `${it.url.replace(/^https?:\/\/[^/]+/, '')}${it.wastedBytes ? ` ${Math.round(it.wastedBytes / 1024)} KiB` : it.wastedMs ? ` ${Math.round(it.wastedMs)} ms` : ''}`);
    out.push({ key: savedMs + (ms.CLS ?? 0) * 10_000, score: a.score, text: `${a.title}${a.displayValue ? ` — ${a.displayValue}` : ''}${bytes && !String(a.displayValue ?? '').includes('KiB') ? ` (${bytes})` : ''}${savings ? ` [est. ${savings}]` : ''} (\`${a.id}\`)${items.length ? `: ${items.join(', ')}` : ''}` });
  }
  return out.sort((x, y) => y.key - x.key || x.score - y.score).map((x) => x.text);
}

/** Failing audits of a non-performance category. */
function failingAudits(lhr, category) {
  return lhr.categories[category].auditRefs
    .map((r) => lhr.audits[r.id])
    .filter((a) => a && a.score !== null && a.score < 1 && ['binary', 'numeric'].includes(a.scoreDisplayMode))
    .map((a) => `${a.title} (\`${a.id}\`)`);
}

/** A reverse proxy to 127.0.0.1:upstreamPort that gzips text responses when the browser accepts gzip. */
async function gzipProxy(upstreamPort) {
  const http = await import('node:http');
  const cache = new Map(); // immutable responses (hashed assets, generated images): gzip once
  const srv = http.createServer((req, res) => {
    const headers = { ...req.headers };
    delete headers['accept-encoding'];
    const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers }, (ur) => {
      const chunks = [];
      ur.on('data', (c) => chunks.push(c));
      ur.on('end', () => {
        const body = Buffer.concat(chunks);
        const h = { ...ur.headers };
        const type = String(h['content-type'] ?? '');
        const ok = /gzip/.test(String(req.headers['accept-encoding'] ?? '')) && body.length > 1024 && /text|javascript|json|svg|xml/.test(type) && !h['content-encoding'];
        if (!ok) {
          res.writeHead(ur.statusCode, h);
          return res.end(body);
        }
        const immutable = /immutable/.test(String(h['cache-control'] ?? ''));
        let gz = immutable ? cache.get(req.url) : undefined;
        if (!gz) {
          gz = gzipSync(body);
          if (immutable) cache.set(req.url, gz);
        }
        h['content-encoding'] = 'gzip';
        h['content-length'] = String(gz.length);
        h.vary = h.vary ? `${h.vary}, Accept-Encoding` : 'Accept-Encoding';
        delete h['transfer-encoding'];
        res.writeHead(ur.statusCode, h);
        res.end(gz);
      });
    });
    up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
    req.pipe(up);
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return srv;
}
