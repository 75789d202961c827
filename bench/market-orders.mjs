// createOrder throughput and latency: (1) every request reserves a different listing (each one a
// conditional UPDATE + order insert in one transaction), (2) every request hits the same listing
// (one winner, the rest are refused with 1013 listingBusy). autocannon, 50 connections.
// Run: cd bench && node market-orders.mjs   (DATABASE_URL=postgres://… for PostgreSQL; BENCH_SECONDS, BENCH_LISTINGS)
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const child = fork(path.join(here, 'market-serve.ts'), [], { execArgv: ['--import', 'tsx'], env: process.env, stdio: 'inherit' });
const info = await new Promise((resolve, reject) => {
  child.once('message', resolve);
  child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
});
const base = `http://127.0.0.1:${info.port}`;
const url = `${base}/mvapi/public/payment/nftOrder/V1/createOrder`;

function run(bodyOf, seconds) {
  let i = 0;
  const statuses = {};
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url, connections: 50, duration: seconds, method: 'POST',
        requests: [{
          setupRequest: (req) => {
            const k = i++;
            return { ...req, headers: { ...req.headers, 'content-type': 'application/json', token: info.tokens[k % info.tokens.length] }, body: JSON.stringify(bodyOf(k)) };
          },
          onResponse: (status, body) => {
            const s = JSON.parse(body).status;
            statuses[s] = (statuses[s] ?? 0) + 1;
          },
        }],
      },
      (err, r) => (err ? reject(err) : resolve({ r, statuses })),
    );
    void inst;
  });
}

const fmt = ({ r, statuses }) =>
  `${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}, statuses ${JSON.stringify(statuses)}`;
try {
  let offset = 0;
  await run((k) => ({ goodsId: info.goodsIds[(offset + k) % info.goodsIds.length] }), 2); // warm-up
  offset = (await (await fetch(`${base}/bench/orders`)).json()).n + 1000;
  const distinct = await run((k) => ({ goodsId: info.goodsIds[offset + k] ?? info.contendedGoodsId }), duration);
  const contended = await run(() => ({ goodsId: info.contendedGoodsId }), duration);
  console.log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite (WAL)'}; ${info.goodsIds.length} listings, ${info.tokens.length} buyers, 50 connections, ${duration} s each`);
  console.log(`createOrder, distinct listings: ${fmt(distinct)}`);
  console.log(`createOrder, one contended listing: ${fmt(contended)}`);
  await new Promise((r) => setTimeout(r, 1000)); // requests still in flight when autocannon stopped
  const onContended = (await (await fetch(`${base}/bench/orders?goodsId=${info.contendedGoodsId}`)).json()).n;
  console.log(`orders on the contended listing: ${onContended} (must be 1)`);
} finally {
  child.kill('SIGTERM');
}
