// Catalog hot paths on a demo catalogue of 100k collectibles: goods/v1/details/ and goods/v1/list/index
// as ratios to a bare Fastify route in the same server and run (warm caches, then a second server with
// the caches off), and search-suggestion latency for
// 1-, 2-, 3- and 4-character terms (sequential requests, then 10 concurrent connections).
// Run: cd bench && node catalog.mjs   (BENCH_GOODS=…, BENCH_SECONDS=…; DATABASE_URL=postgres://… for PostgreSQL)
import { fmt, keepAliveClient, load, post, startServer } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const goodsTarget = Number(process.env.BENCH_GOODS ?? 100_000);
const API = '/mvapi/public';

const t0 = performance.now();
const srv = await startServer({ DEMO_DATA: '1', DEMO_GOODS: String(goodsTarget) });
const startMs = Math.round(performance.now() - t0);
const rand = (n) => 1 + Math.floor(Math.random() * n);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** The catalogue's size and the two loads: details of a random collectible, a random market page and sort. */
async function catalogLoads(base) {
  const all = await post(base, `${API}/goods/v1/list/index`, { status: 'all', pageSize: 1 });
  const market = await post(base, `${API}/goods/v1/list/index`, {});
  const n = all.data.total;
  const marketPages = Math.max(1, Math.min(20, Math.floor(market.data.total / 10)));
  const sorts = ['default', 'priceAsc', 'priceDesc'];
  return {
    n,
    onSale: market.data.total,
    marketPages,
    getDetails: { method: 'GET', setupRequest: (req) => ({ ...req, path: `${API}/goods/v1/details/?id=${rand(n)}` }) },
    postList: {
      method: 'POST',
      setupRequest: (req) => ({ ...req, path: `${API}/goods/v1/list/index`, body: JSON.stringify({ pageNum: rand(marketPages), sort: sorts[rand(3) - 1] }) }),
    },
  };
}

/**
 * A load run that also reports the server's CPU per request (µs): on a shared 2-core machine the load
 * generator and other processes take CPU too, so req/s ratios move between runs; CPU per request does not.
 */
function cpuMeasured(base) {
  const cpu = async () => {
    const c = await (await fetch(`${base}/bench/cpu`)).json();
    return c.user + c.system;
  };
  return async (opts) => {
    const before = await cpu();
    const r = await load({ duration, ...opts });
    r.cpuPerReq = (await cpu() - before) / r.requests.total;
    return r;
  };
}

try {
  const { n, onSale, marketPages, getDetails, postList } = await catalogLoads(srv.base);
  console.log(`catalogue: ${n} collectibles, ${onSale} on sale; server start incl. seeding ${startMs} ms`);

  await load({ url: `${srv.base}/bench/bare`, method: 'GET', duration: 2 }); // warm-up
  // One pass over every collectible first, as a catalogue that has been browsed for a while: the
  // details responses are then in the response cache (DETAILS_CACHE_MB). The cold figure (every
  // request reads the database) comes from the second server below, with the cache off.
  let next = 0;
  const t1 = performance.now();
  await load({ url: srv.base, amount: n, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${API}/goods/v1/details/?id=${(next++ % n) + 1}` }) }] });
  const cache = await (await fetch(`${srv.base}/bench/details-cache`)).json();
  console.log(`warm-up: one pass over ${n} collectibles in ${Math.round(performance.now() - t1)} ms; details cache ${cache.entries} entries, ${(cache.bytes / 1048576).toFixed(0)} MB`);
  await load({ url: srv.base, requests: [postList], duration: 2 });

  const measured = cpuMeasured(srv.base);
  const line = (r) => `${fmt(r)}, server CPU ${r.cpuPerReq.toFixed(0)} µs/req`;
  const bareGet = await measured({ url: `${srv.base}/bench/bare`, method: 'GET' });
  const details = await measured({ url: srv.base, requests: [getDetails] });
  const barePost = await measured({ url: `${srv.base}/bench/bare` });
  const list = await measured({ url: srv.base, requests: [postList] });
  console.log(`bare GET:                  ${line(bareGet)}`);
  console.log(`details (random of ${n}): ${line(details)}`);
  console.log(`  details/bare GET: ${(details.requests.average / bareGet.requests.average).toFixed(2)}x req/s, ${(bareGet.cpuPerReq / details.cpuPerReq).toFixed(2)}x by server CPU (target >= 0.6x on SQLite)`);
  console.log(`bare POST:                 ${line(barePost)}`);
  console.log(`list/index (market page 1-${marketPages}, 3 sorts): ${line(list)}`);
  console.log(`  list/bare POST:   ${(list.requests.average / barePost.requests.average).toFixed(2)}x req/s, ${(barePost.cpuPerReq / list.cpuPerReq).toFixed(2)}x by server CPU (target >= 0.2x on SQLite; pages cached until the next write)`);

  // Search suggestions: sequential latency per term length (client-measured over HTTP on one keep-alive
// socket with node:http; see keepAliveClient for why not fetch).
  const terms = {
    1: ['龙', '猫', '山', '春', '青', '夏', '鲤', '蛇', '城', '花'],
    2: ['节气', '像素', '飞天', '锦鲤', '白泽', '生肖', '敦煌', '青花', '未来', '藻井'],
    3: ['九尾狐', '嘉峪关', '缠枝莲', '节气春', '霓虹街'],
    4: ['十二生肖', '飞天壁画', '未来城市', '山海异兽', '宋韵名窑', '无此藏品'],
  };
  const perLen = {};
  const every = [];
  const serverSide = [];
  const client = keepAliveClient(srv.base);
  for (let round = 0; round < 30; round++) {
    for (const [len, list] of Object.entries(terms)) {
      for (const text of list) {
        const s = performance.now();
        const r = await client.postJson(`${API}/search/v1/query`, { text });
        const ms = performance.now() - s;
        if (r.status !== '000000') throw new Error(`search ${text}: ${r.status}`);
        if (round > 0) {
          (perLen[len] ??= []).push(ms);
          every.push(ms);
        }
      }
    }
  }
  client.close();
  for (const [len, xs] of Object.entries(perLen)) {
    console.log(`search/v1/query ${len}-char terms: p50 ${pct(xs, 50).toFixed(2)} ms, p99 ${pct(xs, 99).toFixed(2)} ms (${xs.length} requests)`);
  }
  console.log(`search/v1/query all terms:   p50 ${pct(every, 50).toFixed(2)} ms, p99 ${pct(every, 99).toFixed(2)} ms, max ${Math.max(...every).toFixed(2)} ms (target p99 <= 10 ms)`);
  const inProc = await post(srv.base, '/bench/search-timing', { terms: Object.values(terms).flat(), rounds: 200 });
  serverSide.push(...inProc.slice(Object.values(terms).flat().length));
  console.log(`  in-process (querySuggestions, no HTTP, ${serverSide.length} calls): p50 ${pct(serverSide, 50).toFixed(3)} ms, p99 ${pct(serverSide, 99).toFixed(3)} ms, max ${Math.max(...serverSide).toFixed(3)} ms`);
  const flat = Object.values(terms).flat();
  const searchLoad = await load({
    url: srv.base,
    connections: 10,
    duration,
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, path: `${API}/search/v1/query`, body: JSON.stringify({ text: flat[rand(flat.length) - 1] }) }) }],
  });
  console.log(`search/v1/query, 10 connections, mixed terms: ${fmt(searchLoad)}`);
} finally {
  srv.stop();
}

// The same calls with the caches off (CATALOG_CACHE_MS=0, DETAILS_CACHE_MB=0): every request reads the database.
if (process.env.BENCH_UNCACHED !== '0') {
  const srv2 = await startServer({ DEMO_DATA: '1', DEMO_GOODS: String(goodsTarget), CATALOG_CACHE_MS: '0', DETAILS_CACHE_MB: '0' });
  try {
    const { getDetails, postList } = await catalogLoads(srv2.base);
    const measured = cpuMeasured(srv2.base);
    await load({ url: srv2.base, requests: [postList], duration: 2 });
    await load({ url: srv2.base, requests: [getDetails], duration: 2 });
    const bareGet = await measured({ url: `${srv2.base}/bench/bare`, method: 'GET' });
    const details = await measured({ url: srv2.base, requests: [getDetails] });
    console.log(`uncached (DETAILS_CACHE_MB=0): bare GET ${Math.round(bareGet.requests.average)} req/s, ${bareGet.cpuPerReq.toFixed(0)} µs/req; details ${fmt(details)}, server CPU ${details.cpuPerReq.toFixed(0)} µs/req`);
    console.log(`  details/bare GET: ${(details.requests.average / bareGet.requests.average).toFixed(2)}x req/s, ${(bareGet.cpuPerReq / details.cpuPerReq).toFixed(2)}x by server CPU`);
    const barePost = await measured({ url: `${srv2.base}/bench/bare` });
    const list = await measured({ url: srv2.base, requests: [postList] });
    console.log(`uncached (CATALOG_CACHE_MS=0): bare POST ${Math.round(barePost.requests.average)} req/s, ${barePost.cpuPerReq.toFixed(0)} µs/req; list/index ${fmt(list)}, server CPU ${list.cpuPerReq.toFixed(0)} µs/req`);
    console.log(`  list/bare POST:   ${(list.requests.average / barePost.requests.average).toFixed(2)}x req/s, ${(barePost.cpuPerReq / list.cpuPerReq).toFixed(2)}x by server CPU`);
  } finally {
    srv2.stop();
  }
}
