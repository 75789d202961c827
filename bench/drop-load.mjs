// Load generator of bench/drop.ts (a separate process: it must not share a core's event loop with
// the orchestrator's database sampler). Receives its job over IPC, answers with the figures.
//
// mode 'drop': `attempts` createOrder {projectId, count 1–2} calls for random users, spread over the
// server processes (keep-alive node:http agents), `concurrency` in flight, starting at the sale start
// by server time. A 1021 answer puts that user aside for its Retry-After (as the web client does).
// A winner then pays from its balance (pay {orderNo, method: balance}) on a random server, cancels
// (cannelOrder) or walks away and lets the order expire — so units come back and are sold again.
// `concurrency` is the number of requests in flight of all three kinds together.
// `rate` (optional) paces the attempts; without it they go as fast as the servers answer.
// `route`: 'spread' (attempts round-robin, follow-ups to a random server) or 'token' (each user's calls to the
// server its session token hashes to, as a proxy's `hash $http_token consistent` does: docs/operations.md).
// mode 'bare': the same calls against the bare Fastify baseline (drop-bare.mjs).
import http from 'node:http';

const CREATE = '/mvapi/public/payment/nftOrder/V1/createOrder';
const PAY = '/mvapi/public/payment/nftOrder/V1/pay';
const CANCEL = '/mvapi/public/payment/nftOrder/V1/cannelOrder';

function client(base, maxSockets) {
  const u = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const request = (method, path, body, token) =>
    new Promise((resolve) => {
      const data = body === undefined ? '' : JSON.stringify(body);
      const t0 = performance.now();
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) };
      if (token) headers.token = token;
      let sent = 0;
      const req = http.request({ host: u.hostname, port: u.port, path, method, agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          let json = null;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // not JSON: counted by its HTTP status
          }
          // waitMs: from the call to its request written on a connected socket (agent queue + connect).
          resolve({ http: res.statusCode ?? 0, json, ms, waitMs: sent ? sent - t0 : ms, retryAfter: Number(res.headers['retry-after'] ?? 0) });
        });
        res.on('error', () => resolve({ http: 0, json: null, ms: performance.now() - t0, retryAfter: 0, error: 'response' }));
      });
      req.on('finish', () => (sent = performance.now()));
      req.on('error', (err) => resolve({ http: 0, json: null, ms: performance.now() - t0, retryAfter: 0, error: err.code ?? String(err) }));
      req.end(data);
    });
  return { request, close: () => agent.destroy() };
}

function pct(arr, n) {
  if (!n) return null;
  const a = Float64Array.from(arr.subarray ? arr.subarray(0, n) : arr.slice(0, n)).sort();
  const at = (p) => Math.round(a[Math.min(n - 1, Math.floor((p / 100) * n))] * 100) / 100;
  return { n, p50: at(50), p90: at(90), p99: at(99), max: Math.round(a[n - 1] * 100) / 100 };
}

const keyOf = (r) => `${r.http}:${r.json?.status ?? (r.error ? `error ${r.error}` : 'no-envelope')}`;
const rand = (n) => Math.floor(Math.random() * n);

/** FNV-1a of a token: the server a token-hashing proxy would pick. */
function tokenHash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

async function run(job) {
  // A pool per server as large as all workers: follow-ups go to a random server, so any share of the workers may
  // call one server at once, and none may wait for a socket.
  const clients = job.targets.map((b) => client(b, job.concurrency));
  const users = job.users.map((u) => ({ ...u, notBefore: 0, home: clients[tokenHash(u.token ?? '') % clients.length] }));
  const lat = new Float64Array(job.attempts);
  /** When each attempt was answered (ms after the start): to split the latencies at the first "sold out". */
  const endAt = new Float64Array(job.attempts);
  const payLat = [];
  const payEndAt = [];
  const payWait = [];
  const cancelLat = [];
  const answers = {};
  const payAnswers = {};
  const cancelAnswers = {};
  const perSecond = [];
  /** Pay and cancel calls answered per second after the start (the other requests the servers serve meanwhile). */
  const followPerSecond = [];
  /** Winners' pay / cancel calls not yet made, sorted by the time they are due (after the buyer's think time). */
  const due = [];
  let fired = 0, done = 0, attemptsInFlight = 0, created = 0, units = 0, paid = 0, cancelled = 0, abandoned = 0;
  let firstOk = null, lastOk = null, firstSoldOut = null, attemptsEnd = null;

  // Wait for the sale start by the servers' clock (same machine here, but measured, not assumed).
  if (job.saleStartAt) {
    const wait = job.saleStartAt - (Date.now() + job.serverOffsetMs);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const t0 = performance.now();
  const wall0 = Date.now();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  function afterWin(u, orderNo, n, k) {
    const dice = Math.random();
    // Only early winners (first churnSeconds, first half of the attempts) cancel or walk away; later ones all pay, so what comes back is sold again.
    const late = performance.now() - t0 > job.churnSeconds * 1000 || k >= job.attempts / 2;
    const action = late || dice < job.payShare ? 'pay' : dice < job.payShare + job.cancelShare ? 'cancel' : 'abandon';
    if (action === 'abandon') {
      abandoned++;
      return;
    }
    const item = { at: performance.now() + rand(job.thinkMs), u, orderNo, n, action };
    let lo = 0, hi = due.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (due[mid].at <= item.at) lo = mid + 1;
      else hi = mid;
    }
    due.splice(lo, 0, item);
  }

  async function followUp({ u, orderNo, n, action }) {
    const c = job.route === 'token' ? u.home : clients[rand(clients.length)];
    const r = action === 'pay' ? await c.request('POST', PAY, { orderNo, method: 'balance' }, u.token) : await c.request('POST', CANCEL, { orderNo }, u.token);
    const into = action === 'pay' ? payAnswers : cancelAnswers;
    into[keyOf(r)] = (into[keyOf(r)] ?? 0) + 1;
    (action === 'pay' ? payLat : cancelLat).push(r.ms);
    if (action === 'pay') payEndAt.push(performance.now() - t0);
    const sec = Math.floor((performance.now() - t0) / 1000);
    followPerSecond[sec] = (followPerSecond[sec] ?? 0) + 1;
    if (action === 'pay' && r.waitMs !== undefined) payWait.push(r.waitMs);
    if (r.json?.status === '000000') {
      if (action === 'pay') paid += n;
      else cancelled += n;
    }
  }

  // `concurrency` workers = the requests in flight, createOrder, pay and cancel together (each worker owns one
  // socket of the pool, so no call waits for a connection). A winner's pay or cancel, once its think time is
  // over, goes before the next attempt, as the buyer's own click would.
  async function worker() {
    for (;;) {
      const now = performance.now();
      if (due.length && due[0].at <= now) {
        await followUp(due.shift());
        continue;
      }
      if (fired >= job.attempts) {
        if (!due.length && attemptsInFlight === 0) return;
        await sleep(due.length ? Math.max(1, due[0].at - now) : 5);
        continue;
      }
      const k = fired++;
      if (job.rate) {
        // Paced: attempt k not before k / rate seconds after the start.
        const wait = t0 + (k / job.rate) * 1000 - performance.now();
        if (wait > 0) await sleep(wait);
      }
      let u = users[rand(users.length)];
      const at = performance.now();
      for (let i = 0; i < 8 && u.notBefore > at; i++) u = users[rand(users.length)];
      const c = job.route === 'token' ? u.home : clients[k % clients.length];
      const n = job.mode === 'drop' ? 1 + (Math.random() < job.twoShare ? 1 : 0) : 1;
      attemptsInFlight++;
      const r = await c.request('POST', job.path ?? CREATE, { projectId: job.projectId, count: n }, u.token);
      attemptsInFlight--;
      lat[k] = r.ms;
      endAt[k] = performance.now() - t0;
      if (++done === job.attempts) attemptsEnd = performance.now();
      const key = keyOf(r);
      answers[key] = (answers[key] ?? 0) + 1;
      const sec = Math.floor((performance.now() - t0) / 1000);
      (perSecond[sec] ??= {})[key] = (perSecond[sec][key] ?? 0) + 1;
      const s = r.json?.status;
      if (job.mode !== 'drop') continue;
      if (s === '000000') {
        created++;
        units += n;
        const okAt = Date.now();
        firstOk ??= okAt;
        lastOk = okAt;
        afterWin(u, r.json.data.orderNo, n, k);
      } else if (s === '1021') {
        u.notBefore = performance.now() + Math.max(1, r.retryAfter || 1) * 1000;
      } else if (s === '1022') {
        firstSoldOut ??= Date.now();
      }
    }
  }
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const seconds = ((attemptsEnd ?? performance.now()) - t0) / 1000;
  for (const c of clients) c.close();
  // Latencies before and after the first "sold out" answer: the sale itself and the flood that follows it.
  const soldOutAt = firstSoldOut === null ? Infinity : firstSoldOut - wall0;
  const split = (l, ends, n) => {
    const before = [], after = [];
    for (let i = 0; i < n; i++) (ends[i] < soldOutAt ? before : after).push(l[i]);
    return { whileLeft: pct(before, before.length), soldOut: pct(after, after.length) };
  };
  return {
    mode: job.mode,
    attempts: done,
    seconds,
    perSecond: done / seconds,
    latency: pct(lat, done),
    latencyByPhase: split(lat, endAt, done),
    answers,
    timeline: perSecond,
    followTimeline: followPerSecond,
    startedAt: wall0,
    created, units, paid, cancelled, abandoned, firstOk, lastOk, firstSoldOut,
    pay: { answers: payAnswers, latency: pct(payLat, payLat.length), latencyByPhase: split(payLat, payEndAt, payLat.length), wait: pct(payWait, payWait.length) },
    cancel: { answers: cancelAnswers, latency: pct(cancelLat, cancelLat.length) },
  };
}

process.on('message', (job) => {
  run(job).then(
    (out) => process.send(out, () => process.exit(0)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
});
