// Drop day (issue #10): one release of BENCH_STOCK units, a flood of createOrder attempts from
// real-named users through TWO real server processes sharing one database, payments through HTTP,
// and every sold unit minted on the embedded chain. Checks no oversell, no limit violation, no 5xx,
// only documented answers, a clean ledger and the chain; prints latency, throughput against a bare
// Fastify baseline measured in the same run, time to sell out and the mint lag after it.
//
// Run: cd bench && node --import tsx drop.ts [--quick] [--db=sqlite|postgres]
//   --quick: 500 stock, 5,000 attempts, 1,000 users (checks the script works, ~1–2 min)
//   full:    10,000 stock, 100,000 attempts, 20,000 users
//   --db=postgres: a fresh database in the server at BENCH_PG_URL (else DATABASE_URL), or — neither
//   set — a throw-away PostgreSQL started with scripts/pg-start.sh for this run.
//   env: BENCH_STOCK, BENCH_ATTEMPTS, BENCH_USERS, BENCH_CONCURRENCY, BENCH_LIMIT (per identity, 2),
//   BENCH_WINDOW_S (payment window, 10), CHAIN_BLOCK_INTERVAL_MS, CHAIN_RECEIPT_INTERVAL_MS (200),
//   BENCH_SERVERS=1 (a comparison: everything on one process), BENCH_PROF=1 (CPU profiles of the servers),
//   BENCH_WORKER_THREAD=1|0 (server A's WORKER_THREAD: its worker role in a thread of its own or not; unset: the
//   server's default, on with two cores or more),
//   BENCH_LOAD_ON=B (two servers, all the load on B: A is then a dedicated worker process),
//   BENCH_SEMI_SPACE_MB (64, as `npm start` runs the server; 0 = V8's default),
//   BENCH_LAST_SEEN_S (600: the buyers were last seen that long before the seeding; 0 = just now),
//   BENCH_ROUTE=token (each buyer's calls to the server its token hashes to, as a proxy hashing the token header;
//   default spread: attempts round-robin, pay / cancel to a random server),
//   BENCH_KEEP=1 keeps the data dir, the logs and the PostgreSQL database.
// While units are left, the machine's CPU is split by role from /proc (cpu-sampler.ts: each server with
// its children, PostgreSQL, the generator, this process, anything else) and divided by the units reserved.
//
// Layout: server A = apps/server/src/main.ts with the embedded @xcfx/node, the job worker (expiry,
// fulfilment, completion) and the mint job; server B = the same main.ts with CHAIN=off and
// MARKET_JOBS=0 (no chain worker, no jobs: see docs/operations.md "Scaling out"). Both listen on
// loopback with SERVE_WEB=0; the load generator (drop-load.mjs) is a third process, this one seeds,
// samples the stock during the run and verifies at the end. Users, sessions, real names, wallets and
// balances are seeded directly with the server's own modules; createOrder, pay and cancel go through HTTP.
import { fork, spawn, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'kysely';
import { Conflux, format, sign } from 'js-conflux-sdk';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { loadArtifact } from '../packages/contracts/src/artifacts.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { buildApp, type App } from '../apps/server/src/app.ts';
import { Account, ledgerProblems, postTxn } from '../apps/server/src/modules/ledger/ledger.ts';
import { createDropRelease } from '../apps/server/src/modules/drops/create-drop-release.ts';
import { ageAt, checkDigit, maskIdNumber, maskName, parseIdNumber } from '../apps/server/src/modules/kyc/id-number.ts';
import { randomToken, sha256 } from '../apps/server/src/util/crypto.ts';
import { CpuSampler } from './cpu-sampler.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const dbKind = (argv.find((a) => a.startsWith('--db='))?.slice(5) ?? 'sqlite') as 'sqlite' | 'postgres';
const env = process.env;
const num = (v: string | undefined, d: number) => (v ? Number(v) : d);
const P = {
  stock: num(env.BENCH_STOCK, quick ? 500 : 10_000),
  attempts: num(env.BENCH_ATTEMPTS, quick ? 5_000 : 100_000),
  users: num(env.BENCH_USERS, quick ? 1_000 : 20_000),
  concurrency: num(env.BENCH_CONCURRENCY, quick ? 64 : 256),
  limit: num(env.BENCH_LIMIT, 2),
  priceFen: 990,
  windowS: num(env.BENCH_WINDOW_S, 10),
  bareRequests: num(env.BENCH_BARE_REQUESTS, quick ? 5_000 : 50_000),
  /** Attempts per second (0 = as fast as answered). Quick mode paces so expired units come back within the run. */
  rate: num(env.BENCH_RATE, quick ? 250 : 0),
  /** Server processes (2; 1 for a comparison run: everything on server A). */
  servers: num(env.BENCH_SERVERS, 2),
  /** Winners of the first N seconds (and of the first half of the attempts) may cancel (7%) or walk away (8%); later winners all pay. */
  churnSeconds: num(env.BENCH_CHURN_S, quick ? 5 : 30),
  route: env.BENCH_ROUTE === 'token' ? ('token' as const) : ('spread' as const),
  mintTimeoutS: num(env.BENCH_MINT_TIMEOUT_S, 900),
};
/** Whether the server version under test has drop_stock_returns (sampleStock; probed before the sale). */
const returnsTable: { has?: boolean } = {};
const LIVE = ['created', 'paying', 'paid', 'settling', 'completed'] as const;
const SOLD = ['paid', 'settling', 'completed'] as const;
/** Answers documented for a drop's createOrder (docs/drops.md); anything else is a finding. */
const DOCUMENTED_CREATE = new Set(['200:000000', '200:1021', '200:1022', '200:1023', '200:1024']);
const DOCUMENTED_PAY = new Set(['200:000000', '200:1015', '200:1016']);
const DOCUMENTED_CANCEL = new Set(['200:000000', '200:1015']);

const log = (...a: unknown[]) => console.log(`[drop ${new Date().toISOString().slice(11, 19)}]`, ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

async function waitFor<T>(what: string, f: () => Promise<T | undefined | false | null>, ms: number, every = 200): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(every);
  }
}

// ---------------------------------------------------------------------------------------------
// Database: a temp DATA_DIR (SQLite file, keys) and, for PostgreSQL, a fresh database.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-bench-drop-'));
let pgDir: string | undefined;
let pgAdminUrl: string | undefined;
let databaseUrl: string | undefined;
const dbName = `bench_drop_${Date.now()}`;
if (dbKind === 'postgres') {
  pgAdminUrl = env.BENCH_PG_URL || env.DATABASE_URL;
  if (!pgAdminUrl) {
    pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-bench-pg-'));
    pgAdminUrl = execFileSync('bash', [path.join(repo, 'scripts/pg-start.sh'), pgDir, String(await freePort())], { encoding: 'utf8' }).trim();
    log(`throw-away PostgreSQL at ${pgAdminUrl}`);
  }
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(pgAdminUrl);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}

const children: ChildProcess[] = [];
let mainApp: App | undefined;
async function cleanup() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => { c.once('exit', r); setTimeout(r, 15_000); }) : undefined)));
  await mainApp?.close().catch(() => {});
  if (pgAdminUrl && databaseUrl && env.BENCH_KEEP === '1') log(`kept database ${databaseUrl}`);
  else if (pgAdminUrl && databaseUrl) {
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect().then(() => admin.query(`drop database if exists ${dbName} with (force)`)).catch((err) => log('drop database failed', String(err)));
    await admin.end().catch(() => {});
  }
  if (pgDir) execFileSync('bash', [path.join(repo, 'scripts/pg-stop.sh'), pgDir]);
  if (env.BENCH_KEEP !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  else log(`kept ${dataDir}`);
}

// ---------------------------------------------------------------------------------------------
// The two server processes.
const common: Record<string, string> = {
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  SERVE_WEB: '0',
  DEV_MODE: '1',
  DEMO_DATA: '0',
  LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'warn',
  PAYMENT_WINDOW_SECONDS: String(P.windowS),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ...common, ...extra };
  if (!databaseUrl) delete e.DATABASE_URL;
  return e;
}
function startServer(name: string, extra: Record<string, string>): ChildProcess {
  const out = fs.openSync(path.join(dataDir, `${name}.log`), 'a');
  // BENCH_PROF=1: a V8 CPU profile of each server, written into the data dir at exit (use with BENCH_KEEP=1).
  const prof = env.BENCH_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${path.join(dataDir, `prof-${name}`)}`] : [];
  const semi = num(env.BENCH_SEMI_SPACE_MB, 64);
  if (semi > 0) prof.push(`--max-semi-space-size=${semi}`);
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', path.join(repo, 'apps/server/src/main.ts')], { cwd: repo, env: serverEnv(extra), stdio: ['ignore', out, out] });
  children.push(child);
  if (child.pid) cpuRoles[`server ${name}`] = [child.pid];
  child.once('exit', (code, sig) => {
    if (!stopping) log(`server ${name} exited (${code ?? sig}); log: ${fs.readFileSync(path.join(dataDir, `${name}.log`), 'utf8').slice(-2000)}`);
  });
  return child;
}
let stopping = false;
/** The CPU sampler's roles by root pid (a server's embedded chain node is its child); this process is "bench". */
const cpuRoles: Record<string, number[]> = { bench: [process.pid] };

/** Waits for the server's /healthz (with its chain `ok` when wantChain); its `data`. */
async function healthy(base: string, wantChain: boolean, child: ChildProcess): Promise<{ chain?: string; worker?: string }> {
  const end = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server at ${base} exited (${child.exitCode ?? child.signalCode})`);
    const data = await fetch(`${base}/healthz`).then(async (r) => (r.status === 200 ? (((await r.json()) as { data?: { chain?: string; worker?: string } }).data ?? {}) : undefined), () => undefined);
    if (data && (!wantChain || data.chain === 'ok')) return data;
    if (Date.now() > end) throw new Error(`timed out waiting for ${base}/healthz`);
    await sleep(250);
  }
}

try {
  const [portA, portB, rpcPort, p2pPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const baseA = `http://127.0.0.1:${portA}`, baseB = `http://127.0.0.1:${portB}`;
  log(`${dbKind}${quick ? ' (quick)' : ''}: stock ${P.stock}, attempts ${P.attempts}, users ${P.users}, concurrency ${P.concurrency}${P.rate ? ` paced at ${P.rate}/s` : ''}, limit ${P.limit}/identity, payment window ${P.windowS} s; data ${dataDir}`);
  const tStartA = Date.now();
  const serverA = startServer('A', {
    ...(env.BENCH_WORKER_THREAD ? { WORKER_THREAD: env.BENCH_WORKER_THREAD } : {}),
    PORT: String(portA),
    CHAIN_NODE_RPC_PORT: String(rpcPort),
    CHAIN_NODE_P2P_PORT: String(p2pPort),
    CHAIN_RECEIPT_INTERVAL_MS: env.CHAIN_RECEIPT_INTERVAL_MS ?? '200',
    ...(env.CHAIN_BLOCK_INTERVAL_MS ? { CHAIN_BLOCK_INTERVAL_MS: env.CHAIN_BLOCK_INTERVAL_MS } : {}),
  });
  const healthA = await healthy(baseA, true, serverA);
  log(`server A (jobs, embedded chain, mint job; worker: ${healthA.worker === 'thread' ? 'in a thread of its own' : 'on the request thread'}) up in ${((Date.now() - tStartA) / 1000).toFixed(1)} s`);

  // This process opens the same database with the server's own code (no chain, no jobs): seeding,
  // sampling and verification.
  mainApp = await buildApp(loadConfig({ ...serverEnv({}), CHAIN: 'off', MARKET_JOBS: '0' }, { dataDir, serveWeb: false }), { logger: false });
  const { ctx } = mainApp;
  const db = ctx.db.kysely;

  // -------------------------------------------------------------------------------------------
  // Seed users: identities with distinct valid GB 11643 numbers of adults, 1–3 accounts each.
  const tSeed = Date.now();
  const seeded = await seedUsers(P.users);
  log(`seeded ${seeded.users.length} users of ${seeded.identities} identities (${seeded.multi} with 2–3 accounts) in ${((Date.now() - tSeed) / 1000).toFixed(1)} s`);

  if (P.servers > 1) {
    const serverB = startServer('B', { PORT: String(portB), CHAIN: 'off', MARKET_JOBS: '0' });
    await healthy(baseB, false, serverB);
    log('server B (API only: CHAIN=off, MARKET_JOBS=0) up');
  }
  const targets = P.servers > 1 ? (env.BENCH_LOAD_ON === 'B' ? [baseB] : [baseA, baseB]) : [baseA];

  // -------------------------------------------------------------------------------------------
  // Baseline: two bare Fastify processes, the same generator, the same concurrency.
  const bare = await Promise.all(targets.map(async () => {
    const c = fork(path.join(here, 'drop-bare.mjs'), [], { env: { PORT: '0' }, stdio: 'inherit' });
    children.push(c);
    const port = await new Promise<number>((resolve) => c.once('message', (m: { port: number }) => resolve(m.port)));
    return { c, base: `http://127.0.0.1:${port}` };
  }));
  const baseline = await runLoad({ mode: 'bare', targets: bare.map((b) => b.base), users: seeded.users.slice(0, 1000).map((u) => ({ token: u.token })), attempts: P.bareRequests, concurrency: P.concurrency, projectId: 1 });
  for (const b of bare) b.c.kill('SIGTERM');
  log(`baseline (bare Fastify ×${targets.length}): ${Math.round(baseline.perSecond)} req/s, p50 ${baseline.latency.p50} ms, p99 ${baseline.latency.p99} ms`);

  // -------------------------------------------------------------------------------------------
  // The release: on sale a few seconds from now, with its per-identity limit.
  const startInMs = 6000;
  const release = await createDropRelease(ctx, null, { supply: P.stock, priceFen: P.priceFen, startInMs, perIdentityLimit: P.limit, maxPerOrder: P.limit });
  const projectId = release.projectId;
  const meta = await db.selectFrom('chain_meta').select(['key', 'value']).execute();
  const collectible = meta.find((m) => m.key === 'collectible_address')!.value;
  await db.updateTable('projects').set({ contract_address: toBase32Address(collectible, 1029) }).where('id', '=', projectId).execute();
  const proj = await db.selectFrom('projects').select(['sale_start_at', 'token_start']).where('id', '=', projectId).executeTakeFirstOrThrow();
  const saleStartAt = Number(proj.sale_start_at);
  const tokenStart = Number(proj.token_start);
  log(`release ${projectId}: ${P.stock} units, tokens ${release.tokenStart}–${release.tokenEnd}, sale starts in ${((saleStartAt - Date.now()) / 1000).toFixed(1)} s`);

  // Server clock (nowStint: serverTime) — the generator starts at the sale start by it.
  const probeUser = seeded.users[0]!;
  let serverOffsetMs = 0;
  for (const base of targets) {
    const t0 = Date.now();
    const r = (await (await fetch(`${base}/mvapi/public/official/stint/nowStint/?projectId=${projectId}`, { headers: { token: probeUser.token } })).json()) as { data: { serverTime: number; saleStartAt: number; status: string } };
    const t1 = Date.now();
    serverOffsetMs = r.data.serverTime - (t0 + t1) / 2;
    if (r.data.saleStartAt !== saleStartAt) throw new Error(`nowStint saleStartAt ${r.data.saleStartAt} ≠ ${saleStartAt}`);
    log(`${base}: status ${r.data.status}, server clock offset ${serverOffsetMs.toFixed(1)} ms`);
  }
  // A few attempts before the start: every one must be 1024 (not on sale yet).
  await waitFor('1.5 s before the start', async () => Date.now() + serverOffsetMs >= saleStartAt - 1500, 30_000, 20);
  const early: Record<string, number> = {};
  for (let i = 0; i < 10; i++) {
    const base = targets[i % targets.length]!;
    const r = await fetch(`${base}/mvapi/public/payment/nftOrder/V1/createOrder`, { method: 'POST', headers: { 'content-type': 'application/json', token: seeded.users[i]!.token }, body: JSON.stringify({ projectId, count: 1 }) });
    const k = `${r.status}:${((await r.json()) as { status: string }).status}`;
    early[k] = (early[k] ?? 0) + 1;
  }
  log(`before the start: ${JSON.stringify(early)}`);

  // -------------------------------------------------------------------------------------------
  // The drop, with the stock sampled all along.
  const samples = { n: 0, rows: 0, violations: [] as string[], maxTaken: 0, maxLive: 0, allReservedAt: null as number | null, soldOutAt: null as number | null, maxSoldUnits: 0 };
  const timeline: Awaited<ReturnType<typeof sampleStock>>[] = [];
  let sampling = true;
  const cpu = new CpuSampler(() => cpuRoles);
  cpu.start();
  // The stock row (oversell: taken ≤ supply, paid ≤ taken) every 200 ms; the orders and goods aggregates
  // once a second (they scan the release's orders: five times a second they took ≈ 15 % of PostgreSQL's CPU
  // during the sale, which the servers share).
  let lastFull = 0;
  // Before the sampler: inside its snapshot the probe would wait for SQLite's one connection, or abort PostgreSQL's transaction.
  returnsTable.has = await sql`select 1 from drop_stock_returns limit 1`.execute(db).then(() => true, () => false);
  const sampler = (async () => {
    while (sampling) {
      if (Date.now() - lastFull < 1000) {
        const st = await sampleStockRow(projectId);
        samples.rows++;
        if (st.taken > st.supply || st.paid > st.taken) {
          if (samples.violations.length < 20) samples.violations.push(JSON.stringify(st));
        }
        samples.maxTaken = Math.max(samples.maxTaken, st.taken);
        if (st.taken >= st.supply && samples.allReservedAt === null) samples.allReservedAt = st.at;
        await sleep(200);
        continue;
      }
      lastFull = Date.now();
      const s = await sampleStock(projectId);
      samples.n++;
      if (!timeline.length || s.at - timeline[timeline.length - 1]!.at >= 5000) timeline.push(s);
      samples.maxTaken = Math.max(samples.maxTaken, s.taken);
      samples.maxLive = Math.max(samples.maxLive, s.live);
      samples.maxSoldUnits = Math.max(samples.maxSoldUnits, s.sold);
      if (s.taken > s.supply || s.live > s.supply || s.sold > s.supply || s.live !== s.taken || s.paid > s.sold) {
        if (samples.violations.length < 20) samples.violations.push(JSON.stringify(s));
      }
      if (s.taken >= s.supply && samples.allReservedAt === null) samples.allReservedAt = s.at;
      if (s.sold >= s.supply && samples.soldOutAt === null) samples.soldOutAt = s.at;
      await sleep(200);
    }
  })();
  const drop = await runLoad({
    mode: 'drop', targets, users: seeded.users.map((u) => ({ token: u.token })), attempts: P.attempts, concurrency: P.concurrency, projectId,
    saleStartAt, serverOffsetMs, twoShare: 0.5, payShare: 0.85, cancelShare: 0.07, churnSeconds: P.churnSeconds, thinkMs: 1000, rate: P.rate, route: P.route,
  });
  cpu.stop();
  log(`attempts done: ${drop.attempts} in ${drop.seconds.toFixed(1)} s (${Math.round(drop.perSecond)}/s); orders ${drop.created} (${drop.units} units), paid ${drop.paid}, cancelled ${drop.cancelled}, abandoned orders ${drop.abandoned}`);

  // Abandoned orders expire (payment window + the 1 s sweep), every paid order is fulfilled, minted and completed.
  await waitFor('unpaid orders to expire', async () => {
    const r = await db.selectFrom('orders').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).where('status', 'in', ['created', 'paying']).executeTakeFirstOrThrow();
    return Number(r.n) === 0;
  }, (P.windowS + 60) * 1000, 250);
  await waitFor('every sold unit minted and its order completed', async () => {
    const o = await db.selectFrom('orders').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).where('status', 'in', ['paid', 'settling']).executeTakeFirstOrThrow();
    const g = await db.selectFrom('goods').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).where('chain_status', '!=', 'minted').executeTakeFirstOrThrow();
    return Number(o.n) === 0 && Number(g.n) === 0;
  }, P.mintTimeoutS * 1000, 250);
  sampling = false;
  await sampler;
  const final = await sampleStock(projectId);

  // -------------------------------------------------------------------------------------------
  // Verification from the database and the chain.
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  check(samples.violations.length === 0, `stock invariant broken during the run: ${samples.violations.join('; ')}`);
  check(final.taken === final.live && final.taken === final.sold && final.sold <= final.supply && final.paid === final.sold, `final stock ${JSON.stringify(final)}`);
  const goods = await db.selectFrom('goods')
    .select((e) => [e.fn.countAll<number>().as('n'), sql<number>`count(distinct serial)`.as('serials'), e.fn.min<number>('serial').as('lo'), e.fn.max<number>('serial').as('hi'),
      sql<number>`sum(case when token_id = ${tokenStart} + serial - 1 then 0 else 1 end)`.as('badToken')])
    .where('project_id', '=', projectId).executeTakeFirstOrThrow();
  const N = Number(goods.n);
  check(N === final.sold, `goods rows ${N} ≠ paid units ${final.sold}`);
  check(N <= P.stock, `goods rows ${N} > stock ${P.stock} (oversold)`);
  check(Number(goods.serials) === N && (N === 0 || (Number(goods.lo) === 1 && Number(goods.hi) === N)), `serials not exactly 1..${N}: ${JSON.stringify(goods)}`);
  check(Number(goods.badToken ?? 0) === 0, `${goods.badToken} goods with token id ≠ token_start + serial − 1`);
  const wrongOwner = await db.selectFrom('goods').innerJoin('orders', 'orders.order_no', 'goods.drop_order_no')
    .select((e) => e.fn.countAll<number>().as('n')).where('goods.project_id', '=', projectId).whereRef('goods.owner_user_id', '!=', 'orders.buyer_user_id').executeTakeFirstOrThrow();
  check(Number(wrongOwner.n) === 0, `${wrongOwner.n} goods not owned by their order's buyer`);
  const perOrder = await db.selectFrom('orders').leftJoin('goods', 'goods.drop_order_no', 'orders.order_no')
    .select(['orders.order_no', 'orders.quantity', (e) => e.fn.count<number>('goods.id').as('g')])
    .where('orders.project_id', '=', projectId).where('orders.status', 'in', [...SOLD]).groupBy(['orders.order_no', 'orders.quantity']).execute();
  const badOrders = perOrder.filter((o) => Number(o.g) !== Number(o.quantity));
  check(badOrders.length === 0, `${badOrders.length} paid orders whose goods ≠ quantity`);
  // The per-identity limit, by the buyers' real-name rows (not the digest the order recorded).
  const overLimit = await db.selectFrom('orders').innerJoin('realname', 'realname.user_id', 'orders.buyer_user_id')
    .select(['realname.id_digest', (e) => e.fn.sum<number>('orders.quantity').as('q')])
    .where('orders.project_id', '=', projectId).where('orders.status', 'in', [...SOLD]).groupBy('realname.id_digest')
    .having((e) => e.fn.sum('orders.quantity'), '>', P.limit).execute();
  check(overLimit.length === 0, `${overLimit.length} identities over the limit of ${P.limit}`);
  const quotaMismatch = await db.selectFrom('drop_quota')
    .leftJoin(
      (e) => e.selectFrom('orders').select(['identity_digest', (x) => x.fn.sum<number>('quantity').as('q')]).where('project_id', '=', projectId).where('status', 'in', [...LIVE]).groupBy('identity_digest').as('o'),
      (j) => j.onRef('o.identity_digest', '=', 'drop_quota.identity_digest'),
    )
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('drop_quota.project_id', '=', projectId).where(sql<boolean>`drop_quota.taken != coalesce(o.q, 0)`).executeTakeFirstOrThrow();
  check(Number(quotaMismatch.n) === 0, `${quotaMismatch.n} drop_quota rows ≠ the units of their identity's orders`);
  const identitiesBought = await db.selectFrom('orders').innerJoin('realname', 'realname.user_id', 'orders.buyer_user_id')
    .select(['realname.id_digest', sql<number>`count(distinct orders.buyer_user_id)`.as('accounts'), (e) => e.fn.sum<number>('orders.quantity').as('q')])
    .where('orders.project_id', '=', projectId).where('orders.status', 'in', [...SOLD]).groupBy('realname.id_digest').execute();
  const sharedBuyers = identitiesBought.filter((r) => Number(r.accounts) > 1).length;
  const problemsLedger = await ledgerProblems(db);
  check(problemsLedger.length === 0, `ledgerProblems: ${problemsLedger.join('; ')}`);
  const orderStatus = Object.fromEntries((await db.selectFrom('orders').select(['status', (e) => e.fn.countAll<number>().as('n')]).where('project_id', '=', projectId).groupBy('status').execute()).map((r) => [r.status, Number(r.n)]));
  const completedWithoutTx = await db.selectFrom('orders').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).where('status', '=', 'completed').where('tx_hash', 'is', null).executeTakeFirstOrThrow();
  check(Number(completedWithoutTx.n) === 0, `${completedWithoutTx.n} completed orders without a mint tx hash`);

  // HTTP: no 5xx, no transport error, only documented answers.
  const fivexx = (a: Record<string, number>) => Object.entries(a).filter(([k]) => k.startsWith('5')).reduce((s, [, v]) => s + v, 0);
  const undocumented = (a: Record<string, number>, ok: Set<string>) => Object.entries(a).filter(([k]) => !ok.has(k));
  const n5xx = fivexx(drop.answers) + fivexx(drop.pay.answers) + fivexx(drop.cancel.answers);
  check(n5xx === 0, `${n5xx} HTTP 5xx answers`);
  for (const [what, a, ok] of [['createOrder', drop.answers, DOCUMENTED_CREATE], ['pay', drop.pay.answers, DOCUMENTED_PAY], ['cancel', drop.cancel.answers, DOCUMENTED_CANCEL]] as const) {
    const u = undocumented(a, ok);
    check(u.length === 0, `${what}: undocumented answers ${JSON.stringify(Object.fromEntries(u))}`);
  }
  check(Object.keys(early).every((k) => k === '200:1024'), `before the start: ${JSON.stringify(early)} (expected only 1024)`);

  // The chain: ownerOf for a sample, balanceOf of every buyer adds up to the units sold, the operator queue.
  const rpcUrl = `http://127.0.0.1:${rpcPort}`;
  const sdk = new Conflux({ url: rpcUrl, networkId: 1029, timeout: 60_000 });
  const art = await loadArtifact('Collectible');
  const contract = sdk.Contract({ abi: art.abi as never, address: toBase32Address(collectible, 1029) }) as unknown as {
    ownerOf(id: bigint): Promise<string>;
    balanceOf(a: string): Promise<bigint>;
  };
  const owners = await db.selectFrom('goods').innerJoin('users', 'users.id', 'goods.owner_user_id')
    .select(['goods.token_id', 'goods.owner_user_id', 'users.wallet_address']).where('goods.project_id', '=', projectId).execute();
  const sample = [...owners].sort(() => Math.random() - 0.5).slice(0, Math.max(500, Math.ceil(owners.length / 10)));
  let ownerOk = 0;
  const tChain = Date.now();
  await pool(sample, 16, async (g) => {
    const on = toBase32Address(await contract.ownerOf(BigInt(g.token_id!)), 1029);
    if (on === g.wallet_address) ownerOk++;
    else if (problems.length < 50) problems.push(`token ${g.token_id}: ownerOf ${on} ≠ buyer wallet ${g.wallet_address}`);
  });
  const byWallet = new Map<string, number>();
  for (const g of owners) byWallet.set(g.wallet_address!, (byWallet.get(g.wallet_address!) ?? 0) + 1);
  let onChainUnits = 0, balanceMismatch = 0;
  await pool([...byWallet], 16, async ([w, n]) => {
    const b = Number(await contract.balanceOf(w));
    onChainUnits += b;
    if (b !== n) balanceMismatch++;
  });
  check(ownerOk === sample.length, `ownerOf matched ${ownerOk}/${sample.length}`);
  check(onChainUnits === N && balanceMismatch === 0, `balanceOf over ${byWallet.size} buyers sums to ${onChainUnits} (goods ${N}), ${balanceMismatch} buyers differ`);
  const chainSecs = (Date.now() - tChain) / 1000;
  const queue = Object.fromEntries((await db.selectFrom('chain_txs').select(['status', (e) => e.fn.countAll<number>().as('n')]).where('kind', '=', 'mint').groupBy('status').execute()).map((r) => [r.status, Number(r.n)]));
  const mintTxs = await db.selectFrom('goods').select(sql<number>`count(distinct mint_tx_hash)`.as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
  check(!queue.failed && Object.keys(queue).every((s) => s === 'confirmed'), `operator queue (mint): ${JSON.stringify(queue)}`);

  // Times: sell-out = the last payment of a unit sold; mint lag = last mint after it.
  const times = await db.selectFrom('orders').select((e) => [e.fn.max<number>('paid_at').as('lastPaid'), e.fn.min<number>('paid_at').as('firstPaid'), e.fn.max<number>('completed_at').as('lastCompleted')])
    .where('project_id', '=', projectId).where('status', 'in', [...SOLD]).executeTakeFirstOrThrow();
  const lastMint = await db.selectFrom('goods').select((e) => e.fn.max<number>('minted_at').as('t')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
  const soldOut = final.sold === P.stock;
  const sellOutMs = soldOut ? Number(times.lastPaid) - saleStartAt : null;
  const mintLagMs = Number(lastMint.t) - Number(times.lastPaid);
  if (!soldOut) problems.push(`not sold out: ${final.sold}/${P.stock} units paid`);

  // -------------------------------------------------------------------------------------------
  const ratio = drop.perSecond / baseline.perSecond;
  const s = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);
  const lat = (l: { p50: number; p90: number; p99: number; max: number } | null) => (l ? `p50 ${l.p50} / p90 ${l.p90} / p99 ${l.p99} / max ${l.max} ms` : '—');
  const sorted = (a: Record<string, number>) => Object.fromEntries(Object.entries(a).sort((x, y) => y[1] - x[1]));
  console.log('');
  console.log(`=== drop benchmark: ${dbKind === 'postgres' ? 'PostgreSQL 15' : 'SQLite (WAL, one file)'}, ${P.servers} server process${P.servers > 1 ? 'es' : ''}${quick ? ' (quick)' : ''} — ${new Date().toISOString()} ===`);
  console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} (1/5/15 min) at the end; block interval ${env.CHAIN_BLOCK_INTERVAL_MS ?? 'off (each tx packed at once)'}; receipt poll ${env.CHAIN_RECEIPT_INTERVAL_MS ?? 200} ms`);
  console.log(`stock ${P.stock}, limit ${P.limit}/identity (max ${P.limit}/order), ${seeded.users.length} users / ${seeded.identities} identities (${seeded.multi} with 2–3 accounts), ${P.attempts} attempts at concurrency ${P.concurrency}${P.rate ? ` paced at ${P.rate}/s` : ' unpaced'}, churn in the first ${P.churnSeconds} s, payment window ${P.windowS} s${P.servers > 1 ? `, routing ${P.route}` : ''}`);
  console.log(`createOrder: ${Math.round(drop.perSecond)} attempts/s over ${drop.seconds.toFixed(1)} s; latency ${lat(drop.latency)}`);
  const byPhase = (b?: ByPhase) =>
    b ? `while units were left ${b.whileLeft ? `p99 ${b.whileLeft.p99} ms of ${b.whileLeft.n}` : '—'}, once sold out ${b.soldOut ? `p99 ${b.soldOut.p99} ms of ${b.soldOut.n}` : '—'}` : '—';
  console.log(`  by phase (split at the first sold-out answer): ${byPhase(drop.latencyByPhase)}`);
  // The two phases of the flood: while units are left every admitted attempt is a reservation
  // transaction; once all are taken the cached stock answers 1022 without a write.
  const soldOutSec = drop.firstSoldOut === null ? drop.timeline.length : Math.floor((drop.firstSoldOut - drop.startedAt) / 1000);
  const phase = (a: number, b: number) => {
    let n = 0;
    for (let i = a; i < b && i < drop.timeline.length; i++) for (const v of Object.values(drop.timeline[i] ?? {})) n += v;
    const secs = Math.min(b, drop.timeline.length) - a;
    return secs > 0 ? Math.round(n / secs) : null;
  };
  const reservePhase = phase(0, soldOutSec), soldOutPhase = phase(soldOutSec + 1, drop.timeline.length - 1);
  // Pay and cancel calls answered in the same seconds: what else the servers served while units were left.
  const followIn = (a: number, b: number) => {
    let n = 0;
    for (let i = a; i < b && i < (drop.followTimeline?.length ?? 0); i++) n += drop.followTimeline?.[i] ?? 0;
    const secs = Math.min(b, drop.timeline.length) - a;
    return secs > 0 ? Math.round(n / secs) : null;
  };
  const reserveFollow = followIn(0, soldOutSec);
  console.log(`  by phase: ${reservePhase ?? '—'} attempts/s while units were left (0–${soldOutSec} s, ${reservePhase ? (reservePhase / baseline.perSecond).toFixed(2) : '—'}× the bare route), ${soldOutPhase ?? '—'} attempts/s once sold out (${soldOutPhase ? (soldOutPhase / baseline.perSecond).toFixed(2) : '—'}×)${P.rate ? ' — paced, so these ratios say nothing' : ''}`);
  if (reservePhase && reserveFollow !== null) console.log(`  while units were left the servers also answered ${reserveFollow} pay/cancel calls/s: ${reservePhase + reserveFollow} requests/s in all (${((reservePhase + reserveFollow) / baseline.perSecond).toFixed(2)}× the bare route)`);
  // Where the two cores went while units were left, and what one reserved unit cost each role.
  const cpuLeft = cpu.between(saleStartAt, drop.firstSoldOut ?? samples.allReservedAt ?? Date.now());
  let cpuPerUnit: Record<string, number> | null = null;
  if (cpuLeft) {
    let reservations = 0;
    for (let i = 0; i < soldOutSec && i < drop.timeline.length; i++) reservations += drop.timeline[i]?.['200:000000'] ?? 0;
    const units = reservations * (drop.created ? drop.units / drop.created : 1);
    const r = cpuLeft.byRole;
    const f = (x: number) => x.toFixed(1);
    const served = Object.entries(r).filter(([k]) => k.startsWith('server') || k === 'postgres');
    const perUnitMs = (x: number) => (units ? (x * 1000) / units : 0);
    cpuPerUnit = Object.fromEntries([...Object.entries(r), ...Object.entries(cpuLeft.mainThread).filter(([k]) => k.startsWith('server')).map(([k, v]) => [`${k} main thread`, v] as const)].map(([k, v]) => [k, Number(perUnitMs(v).toFixed(3))]));
    const platform = served.reduce((a, [, v]) => a + v, 0);
    const mains = Object.entries(cpuLeft.mainThread).filter(([k]) => k.startsWith('server'));
    console.log(
      `  CPU while units were left (${f(cpuLeft.seconds)} s × ${os.cpus().length} cores = ${f(cpuLeft.seconds * os.cpus().length)} CPU-s): ${Object.entries(r).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${f(v)} s`).join(', ')}, idle ${f(cpuLeft.idle)} s`,
    );
    console.log(
      `    per unit reserved (${Math.round(units)} units): ${served.map(([k, v]) => `${k} ${perUnitMs(v).toFixed(2)} ms`).join(', ')} — together ${perUnitMs(platform).toFixed(2)} ms, at most ${Math.round((os.cpus().length * 1000) / perUnitMs(platform))} units/s on these ${os.cpus().length} cores with nothing else running`,
    );
    console.log(
      `    servers' main threads (the event loop): ${mains.map(([k, v]) => `${k} ${f(v)} s busy of ${f(cpuLeft.seconds)} (${Math.round((v / cpuLeft.seconds) * 100)} %), ${perUnitMs(v).toFixed(2)} ms per unit`).join('; ')}`,
    );
  }
  // And once sold out: what one answered attempt (a 1022 from the cached stock) cost each role.
  const soldOutFrom = drop.startedAt + (soldOutSec + 1) * 1000, soldOutTo = drop.startedAt + drop.seconds * 1000;
  const cpuSoldOut = soldOutTo - soldOutFrom >= 3000 ? cpu.between(soldOutFrom, soldOutTo) : undefined;
  let cpuPerAnswer: Record<string, number> | null = null;
  if (cpuSoldOut && soldOutPhase) {
    const answers = soldOutPhase * cpuSoldOut.seconds;
    const r = cpuSoldOut.byRole;
    const served = Object.entries(r).filter(([k]) => k.startsWith('server') || k === 'postgres');
    const per = (x: number) => (x * 1e6) / answers;
    cpuPerAnswer = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(per(v).toFixed(1))]));
    console.log(
      `  CPU once sold out (${cpuSoldOut.seconds.toFixed(1)} s): ${Object.entries(r).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ')}, idle ${cpuSoldOut.idle.toFixed(1)} s — per answered attempt: ${served.map(([k, v]) => `${k} ${per(v).toFixed(0)} µs`).join(', ')}`,
    );
  }
  console.log(`baseline bare Fastify ×${targets.length}: ${Math.round(baseline.perSecond)} req/s; latency ${lat(baseline.latency)}  →  ratio ${ratio.toFixed(2)}×`);
  console.log(`createOrder answers: ${JSON.stringify(sorted(drop.answers))}`);
  console.log(`pay (balance): ${lat(drop.pay.latency)}; answers ${JSON.stringify(drop.pay.answers)}${drop.pay.wait ? `; of which waiting for a connection: p50 ${drop.pay.wait.p50} / p99 ${drop.pay.wait.p99} ms` : ''}`);
  console.log(`  pay by phase: ${byPhase(drop.pay.latencyByPhase)}`);
  console.log(`cancel: ${lat(drop.cancel.latency)}; answers ${JSON.stringify(drop.cancel.answers)}`);
  console.log(`orders: ${drop.created} created (${drop.units} units), ${drop.paid} units paid by the generator, ${drop.cancelled} units cancelled, ${drop.abandoned} orders left to expire; final statuses ${JSON.stringify(orderStatus)}`);
  console.log(`sold out: ${soldOut ? 'yes' : 'NO'} — ${final.sold}/${P.stock} paid; all units reserved at ${s(samples.allReservedAt === null ? null : samples.allReservedAt - saleStartAt)}, last unit paid at ${s(sellOutMs)} after the start (first 1022 at ${s(drop.firstSoldOut === null ? null : drop.firstSoldOut - saleStartAt)})`);
  console.log(`minting: last of ${N} tokens minted ${s(mintLagMs)} after the sell-out (target ≤ 60 s), in ${mintTxs.n} mint transactions; operator queue ${JSON.stringify(queue)}; orders completed ${orderStatus.completed ?? 0}`);
  console.log(`invariants: oversold 0 (max taken ${samples.maxTaken}, max live ${samples.maxLive} of ${P.stock}; ${samples.n} full samples, ${samples.rows} of the stock row, ${samples.violations.length} violations); identities over the limit ${overLimit.length} (identities with 2–3 buying accounts: ${sharedBuyers}); 5xx ${n5xx}; ledgerProblems ${problemsLedger.length}; ownerOf ${ownerOk}/${sample.length}; balanceOf sum ${onChainUnits}/${N} over ${byWallet.size} buyers (${chainSecs.toFixed(1)} s)`);
  // Every 5 s from the sale start: units reserved (taken) and paid, collectibles created (fulfilled) and minted; createOrder answers in that window.
  console.log('timeline (s after the start: taken / paid units / goods fulfilled / minted | createOrder answers in the 5 s before):');
  for (const t of [...timeline, final]) {
    const sec = Math.round((t.at - saleStartAt) / 1000);
    const from = Math.max(0, Math.floor((t.at - 5000 - drop.startedAt) / 1000)), to = Math.floor((t.at - drop.startedAt) / 1000);
    const win: Record<string, number> = {};
    for (let i = from; i < to && i < drop.timeline.length; i++) for (const [k, v] of Object.entries(drop.timeline[i] ?? {})) win[k.replace(/^200:/, '')] = (win[k.replace(/^200:/, '')] ?? 0) + v;
    console.log(`  ${String(sec).padStart(4)} s: ${t.taken} / ${t.sold} / ${t.goods} / ${t.minted}${Object.keys(win).length ? ` | ${JSON.stringify(win)}` : ''}`);
  }
  console.log(problems.length ? `PROBLEMS (${problems.length}):\n  ${problems.join('\n  ')}` : 'all checks passed');
  console.log(`result ${JSON.stringify({ db: dbKind, quick, P, attemptsPerSecond: Math.round(drop.perSecond), latency: drop.latency, latencyByPhase: drop.latencyByPhase, pay: drop.pay.latency, payByPhase: drop.pay.latencyByPhase, baseline: { perSecond: Math.round(baseline.perSecond), latency: baseline.latency }, ratio: Number(ratio.toFixed(3)), reservePhase, reserveFollow, soldOutPhase, answers: drop.answers, payAnswers: drop.pay.answers, sellOutMs, allReservedMs: samples.allReservedAt && samples.allReservedAt - saleStartAt, mintLagMs, minted: N, mintTxs: Number(mintTxs.n), problems: problems.length, loadavg: os.loadavg(), cpuLeft, cpuPerUnitMs: cpuPerUnit, cpuSoldOut, cpuPerSoldOutAnswerUs: cpuPerAnswer })}`);
  process.exitCode = problems.length ? 1 : 0;

  // -------------------------------------------------------------------------------------------
  // Units given back by closed orders but not yet folded into the stock row (PostgreSQL, migration 0042): for sale
  // again, so "taken" below is the row's minus them. A server version without the table has none.
  async function stockRow(q: typeof db, pid: number) {
    const hasReturns = returnsTable.has;
    const st = await q.selectFrom('drop_stock').select(['supply', 'taken', 'paid']).where('project_id', '=', pid).executeTakeFirstOrThrow();
    const pending = hasReturns ? Number((await sql<{ n: number | null }>`select sum(units) as n from drop_stock_returns where project_id = ${pid}`.execute(q)).rows[0]?.n ?? 0) : 0;
    return { supply: Number(st.supply), taken: Number(st.taken) - pending, paid: Number(st.paid) };
  }
  async function sampleStockRow(pid: number) {
    return { at: Date.now(), ...(await stockRow(db, pid)) };
  }
  async function sampleStock(pid: number) {
    const read = async (q: typeof db) => {
      const st = await stockRow(q, pid);
      const live = await q.selectFrom('orders').select((e) => e.fn.sum<number>('quantity').as('q')).where('project_id', '=', pid).where('status', 'in', [...LIVE]).executeTakeFirstOrThrow();
      const sold = await q.selectFrom('orders').select((e) => e.fn.sum<number>('quantity').as('q')).where('project_id', '=', pid).where('status', 'in', [...SOLD]).executeTakeFirstOrThrow();
      const g = await q.selectFrom('goods').select((e) => [e.fn.countAll<number>().as('n'), sql<number>`sum(case when chain_status = 'minted' then 1 else 0 end)`.as('minted')]).where('project_id', '=', pid).executeTakeFirstOrThrow();
      return { at: Date.now(), supply: Number(st.supply), taken: Number(st.taken), paid: Number(st.paid), live: Number(live.q ?? 0), sold: Number(sold.q ?? 0), goods: Number(g.n), minted: Number(g.minted ?? 0) };
    };
    // One snapshot: repeatable read on PostgreSQL; on SQLite a deferred read transaction (WAL: a snapshot
    // that blocks no writer). Not db.transaction(): the server's dialect begins IMMEDIATE, which takes the
    // write lock, and the sampler then held the servers' writes back ≈ 12 ms five times a second.
    if (ctx.db.dialect === 'postgres') return db.transaction().setIsolationLevel('repeatable read').execute(read);
    return db.connection().execute(async (conn) => {
      await sql`begin deferred`.execute(conn);
      try {
        return await read(conn as typeof db);
      } finally {
        await sql`commit`.execute(conn);
      }
    });
  }

  async function seedUsers(count: number) {
    const REGIONS = ['110101', '310104', '440106', '330106', '510107', '420106', '320102', '610113', '370102', '500103'];
    const SURNAMES = [...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤'];
    const GIVEN = [...'伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏辉建国文斌宇浩凯晨欣怡梓轩子涵雨婷佳琪思远嘉俊博文天宇宁雪梅志强海燕'];
    const now = ctx.now();
    const users: { userId: number; token: string; identity: number }[] = [];
    const idNumbers: string[] = [];
    let identities = 0, multi = 0;
    // Identity i: region, birth day and sequence from i (distinct by construction); 8% have 3 accounts, 12% have 2.
    const plan: { identity: number; idNumber: string; name: string; birth: string }[] = [];
    for (let i = 0; plan.length < count; i++) {
      const region = REGIONS[i % REGIONS.length]!;
      const day = Math.floor(i / REGIONS.length) % 12_000;
      const seq = Math.floor(i / (REGIONS.length * 12_000));
      const birth = new Date(Date.UTC(1970, 0, 1) + day * 86_400_000);
      const ymd = `${birth.getUTCFullYear()}${String(birth.getUTCMonth() + 1).padStart(2, '0')}${String(birth.getUTCDate()).padStart(2, '0')}`;
      const first17 = `${region}${ymd}${String(seq * 2 + 1 + (i % 2)).padStart(3, '0')}`;
      const idNumber = first17 + checkDigit(first17);
      const parsed = parseIdNumber(idNumber);
      if (!parsed || ageAt(parsed.birth, now) < 18) throw new Error(`bad generated ID number ${maskIdNumber(idNumber)}`);
      idNumbers.push(idNumber);
      const name = SURNAMES[i % SURNAMES.length]! + GIVEN[(i * 7) % GIVEN.length]! + (i % 3 ? GIVEN[(i * 13 + 5) % GIVEN.length]! : '');
      const r = (i * 2654435761) % 100;
      const accounts = r < 8 ? 3 : r < 20 ? 2 : 1;
      identities++;
      if (accounts > 1) multi++;
      for (let a = 0; a < accounts && plan.length < count; a++) plan.push({ identity: i, idNumber, name, birth: `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6)}` });
    }
    if (new Set(idNumbers).size !== idNumbers.length) throw new Error('generated ID numbers are not distinct');
    const BATCH = 500;
    for (let b = 0; b < plan.length; b += BATCH) {
      const part = plan.slice(b, b + BATCH);
      await db.transaction().execute(async (trx) => {
        const rows = part.map((p, k) => {
          const i = b + k;
          const key = crypto.randomBytes(32);
          const hex = format.hexAddress(sign.privateKeyToAddress(key));
          return {
            account_id: `7${String(i).padStart(11, '0')}`, mobile: `139${String(i).padStart(8, '0')}`, password_hash: null, nickname: `藏友${i}`, profpic_id: '1',
            is_realname: 1, is_creator: 0, wallet_address: toBase32Address(hex, 1029), invite_code: `B${i.toString(36).toUpperCase().padStart(7, '0')}`,
            invited_by: null, regist_channel: 'bench', created_at: now,
          };
        });
        const ids = await trx.insertInto('users').values(rows).returning(['id', 'mobile']).execute();
        const idOf = new Map(ids.map((r) => [r.mobile, Number(r.id)]));
        const realname = part.map((p, k) => {
          const userId = idOf.get(rows[k]!.mobile)!;
          return {
            user_id: userId, name_sealed: ctx.secrets.seal(p.name), id_sealed: ctx.secrets.seal(p.idNumber), id_digest: ctx.secrets.digest(p.idNumber),
            id_masked: maskIdNumber(p.idNumber), name_masked: maskName(p.name), birth_sealed: ctx.secrets.seal(p.birth), adult: 1, provider: 'sandbox' as const, verified_at: now,
          };
        });
        await trx.insertInto('realname').values(realname).execute();
        // The buyers logged in before the sale and were last seen BENCH_LAST_SEEN_S (600) seconds before the
        // seeding — waiting on the release page's countdown makes no request — so the first call of each in a
        // process finds its activity over a minute old and records it (accounts/sessions.ts).
        const lastSeen = now - num(env.BENCH_LAST_SEEN_S, 600) * 1000;
        const sessions = part.map((p, k) => {
          const token = randomToken(32);
          const userId = idOf.get(rows[k]!.mobile)!;
          users.push({ userId, token, identity: p.identity });
          return { token_hash: sha256(token), user_id: userId, created_at: lastSeen, expires_at: now + ctx.config.sessionTtlMs, revoked_at: null, sid: crypto.randomBytes(16).toString('hex'), user_agent: 'bench', ip: null, last_seen_at: lastSeen };
        });
        await trx.insertInto('sessions').values(sessions).execute();
        // Balances for `pay` with method balance: one top-up transaction per batch, as the sandbox top-up books it.
        const each = P.priceFen * P.limit * 2;
        await postTxn(trx, {
          id: `bench-topup:${b}`, kind: 'topup', now,
          entries: [{ account: Account.external('sandbox'), amountFen: -each * part.length }, ...part.map((_, k) => ({ account: Account.user(idOf.get(rows[k]!.mobile)!), amountFen: each }))],
        });
      });
    }
    return { users, identities, multi };
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  stopping = true;
  await cleanup();
}

// ---------------------------------------------------------------------------------------------
interface Lat { n: number; p50: number; p90: number; p99: number; max: number }
interface ByPhase { whileLeft: Lat | null; soldOut: Lat | null }
interface LoadOut {
  attempts: number; seconds: number; perSecond: number; latency: Lat; latencyByPhase?: ByPhase; answers: Record<string, number>; startedAt: number; timeline: (Record<string, number> | null)[]; followTimeline?: (number | null)[]; created: number; units: number; paid: number; cancelled: number; abandoned: number;
  firstOk: number | null; lastOk: number | null; firstSoldOut: number | null;
  pay: { answers: Record<string, number>; latency: Lat | null; latencyByPhase?: ByPhase; wait?: Lat | null }; cancel: { answers: Record<string, number>; latency: Lat | null };
}
function runLoad(job: Record<string, unknown>): Promise<LoadOut> {
  const c = fork(path.join(here, 'drop-load.mjs'), [], { stdio: 'inherit' });
  children.push(c);
  if (c.pid) cpuRoles.generator = [c.pid];
  return new Promise((resolve, reject) => {
    c.once('message', (m) => resolve(m as LoadOut));
    c.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited ${code}`)));
    c.send(job);
  });
}

async function pool<T>(items: T[], n: number, f: (x: T) => Promise<void>) {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (i < items.length) await f(items[i++]!);
  }));
}
