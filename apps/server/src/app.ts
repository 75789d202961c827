import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE, Status } from '@cfx/contract/envelope.ts';
import type { Config } from './config.ts';
import { systemMonotonicNow, type AppContext } from './context.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { apiNotFound, installErrorHandling, notFoundBody } from './http/errors.ts';
import { body, langOf } from './http/envelope.ts';
import { chainHealth } from './chain/chain-health.ts';
import { installSecurityHeaders } from './http/security.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { accountRoutes, flushSessionTouches } from './modules/accounts/index.ts';
import { captchaRoutes } from './modules/captcha/index.ts';
import { devRoutes } from './modules/dev/index.ts';
import { mediaRoutes } from './modules/media/index.ts';
import { walletRoutes } from './modules/wallet/index.ts';
import { chainRoutes } from './modules/chain/index.ts';
import { startChain } from './chain/chain-service.ts';
import { startDemoMarket } from './chain/demo-market.ts';
import { localCaptcha } from './providers/captcha/local.ts';
import { yidunCaptcha } from './providers/captcha/yidun.ts';
import { aliyunSms } from './providers/sms/aliyun.ts';
import { sandboxSms } from './providers/sms/sandbox.ts';
import { aliyunKyc } from './providers/kyc/aliyun.ts';
import { sandboxKyc } from './providers/kyc/sandbox.ts';
import { loadSecretBox } from './util/secret-box.ts';
import { setPasswordScryptN } from './util/crypto.ts';
import { ensurePrivateDir } from './util/private-files.ts';
import { kycRoutes } from './modules/kyc/index.ts';
import { catalogRoutes } from './modules/catalog/index.ts';
import { contentRoutes } from './modules/content/index.ts';
import { searchRoutes } from './modules/search/index.ts';
import { seedDemoIfEmpty } from './modules/demo/index.ts';
import { mountWeb } from './web/ssr.ts';
import { startMarket } from './modules/market/index.ts';
import { marketRoutes } from './modules/market/index.ts';
import { bidRoutes } from './modules/bids/index.ts';
import { orderRoutes } from './modules/orders/index.ts';
import { paymentNotifyRoutes, paymentRoutes } from './modules/payments/index.ts';
import { ledgerRoutes } from './modules/ledger/index.ts';
import { createDropOrderFor, dropRoutes, isDropOrderBody, registerDropJobs, startDropWarmup } from './modules/drops/index.ts';
import { localStorage } from './providers/storage/local.ts';
import { s3Storage } from './providers/storage/s3.ts';
import { mediaUploadRoutes, uploadRoutes } from './modules/uploads/index.ts';
import { settledRoutes } from './modules/settled/index.ts';
import { privacyRoutes } from './modules/privacy/index.ts';
import { registerAccountJobs } from './modules/privacy/index.ts';
import { boxRoutes } from './modules/boxes/index.ts';
import { composeRoutes } from './modules/compose/index.ts';
import { shiftRoutes } from './modules/shift/index.ts';
import { bankLogoRoutes, createNotifier, payoutNotifyRoutes, payoutRoutes, startPayouts } from './modules/payout/index.ts';
import { cardPayNotifyRoutes, cardPayRoutes, startCardPayJobs } from './modules/card-pay/index.ts';
import { creatorRoutes } from './modules/creators/index.ts';
import { studioAdminRoutes, studioRoutes } from './modules/studio/index.ts';
import { messageRoutes } from './modules/messages/index.ts';
import { MessageHub } from './modules/messages/index.ts';
import { registerMessageJobs } from './modules/messages/index.ts';
import { inviteRoutes } from './modules/invites/index.ts';
import { ticketRoutes } from './modules/tickets/index.ts';
import { posterRoutes } from './modules/poster/index.ts';
import { adminRoutes } from './modules/admin/index.ts';
import { ADMIN_BASE } from '@cfx/contract/admin-rules.ts';
import { devTicketRoutes } from './modules/tickets/index.ts';
import { JobRunner } from './jobs/runner.ts';
import { attachOrderSettlement, joinOrders, startGoodsFlows } from './flows/index.ts';
import { startWorkerRole } from './worker-role.ts';

/** Query parameters whose values are secrets (cashier tickets, signatures, tokens, codes, passwords). */
const SECRET_PARAMS = /([?&](?:t|ticket|token|sign|signature|code|smsCode|smscode|pwd|password|newPwd|NECaptchaValidate|idNumber)=)[^&#]*/gi;

/**
 * Masks secrets and personal data wherever they appear in a logged URL: the values of secret
 * query parameters, ID-card numbers (18 characters) and phone numbers (11 digits starting with 1).
 */
export const maskPii = (s: string) =>
  s
    .replace(SECRET_PARAMS, '$1***')
    .replace(/(\d{6})\d{8}(\d{3}[\dXx])/g, '$1********$2')
    .replace(/(1\d{2})\d{4}(\d{4})/g, '$1****$2');

/** The page for a URL that cannot be decoded (no SSR for it: nothing of it can be trusted). */
const BAD_URL_PAGE = '<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>400</title><body style="font-family:sans-serif;text-align:center;padding:64px"><h1>400</h1><p>链接格式有误 · This link is malformed.</p><p><a href="/">返回首页 · Home</a></p></body></html>';

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

/**
 * `now`: the business clock (default Date.now); `monotonicNow`: the cache clock (default
 * performance.now) — see AppContext. Tests pass both to move time without sleeping.
 */
export async function buildApp(
  config: Config,
  opts: { now?: () => number; monotonicNow?: () => number; logger?: boolean; logStream?: NodeJS.WritableStream } = {},
): Promise<App> {
  ensurePrivateDir(config.dataDir);
  setPasswordScryptN(config.passwordScryptN);
  let dbWarn = (msg: string): void => void process.stderr.write(`${msg}\n`);
  const db = openDatabase({ ...config, checkpointThread: config.sqliteCheckpointThread, warn: (msg) => dbWarn(msg) });
  const now = opts.now ?? Date.now;
  const secrets = loadSecretBox(config.dataDir);
  await migrate(db, { secrets, now: now() });
  let jobLog: (msg: string, extra?: unknown) => void = () => {};
  const ctx: AppContext = {
    config,
    db,
    now,
    monotonicNow: opts.monotonicNow ?? systemMonotonicNow,
    sms: config.smsProvider === 'aliyun' ? aliyunSms(config.aliyunSms!) : sandboxSms(db, now),
    captcha: config.captchaProvider === 'yidun' ? yidunCaptcha(config.yidun!) : localCaptcha(config.captchaProvider, db, now),
    kyc: config.kycProvider === 'aliyun' ? aliyunKyc(config.aliyunKyc!) : sandboxKyc,
    secrets,
    storage: config.uploads.provider === 's3' ? s3Storage(config.uploads.s3!) : localStorage(path.join(config.dataDir, 'uploads')),
    // The durable job worker: modules and flows attach their jobs below; the worker role starts it.
    jobs: new JobRunner(db, {
      intervalMs: config.market.jobIntervalMs,
      maxInFlight: config.market.jobsInFlight,
      leaseMs: Math.max(60_000, config.market.settleCheckMs * 4),
      log: (msg, extra) => jobLog(msg, extra),
    }),
  };

  // The demo catalogue (DEMO_DATA, on by default with the embedded SQLite database) when it is empty.
  if (config.demoData) {
    try {
      await seedDemoIfEmpty(ctx);
    } catch (err) {
      await db.close();
      throw err;
    }
  }

  const app = Fastify({
    bodyLimit: 256 * 1024,
    // A URL Fastify cannot decode (bad percent-encoding): the envelope under the API, a plain 400 page elsewhere.
    frameworkErrors: (_err, req, res) => {
      const reply = res as unknown as FastifyReply;
      if (apiNotFound(req)) return reply.code(400).send(body(Status.INVALID, null, formatMessage('badParams', langOf(req))));
      return reply.code(400).type('text/html; charset=utf-8').send(BAD_URL_PAGE);
    },
    // A hop count trusts the nearest n proxies (as proxy-addr does for a number); a list trusts those addresses.
    trustProxy: typeof config.trustProxy === 'number' ? ((hops: number) => (_addr: string, i: number) => i < hops)(config.trustProxy) : config.trustProxy,
    logger: opts.logger === false ? false : {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      redact: ['req.headers.token', 'req.headers.cookie'],
      serializers: {
        req: (req) => ({ method: req.method, url: maskPii(req.url), remoteAddress: req.ip }),
      },
    },
  });
  jobLog = (msg, extra) => app.log.warn(extra ?? {}, msg);
  dbWarn = (msg) => app.log.warn(msg);
  try {
    ctx.chain = await startChain(config, db, (msg, extra) => app.log.info(extra ?? {}, msg));
  } catch (err) {
    await db.close();
    throw err;
  }
  ctx.market = await startMarket(app, ctx).catch(async (err) => {
    await ctx.chain?.stop();
    await db.close();
    throw err;
  });
  // The cashier sandbox's notifies to this server (payments); ended when the app closes.
  const notifier = createNotifier(
    async (p, body) => (await app.inject({ method: 'POST', url: p, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body })).body,
    (msg, extra) => app.log.warn(extra ?? {}, msg),
  );
  app.addHook('onClose', async () => notifier.stop());
  // The sessions' activity recorded in memory is written before the database closes.
  app.addHook('onClose', async () => flushSessionTouches(ctx).catch(() => undefined));
  // Orders and the market joined to the modules above them (drops, payments, shift).
  joinOrders(ctx);
  // Every job and sweep is attached to ctx.jobs here, in this order (the sweeps run in it):
  // order → payment → settlement (the settle job, order expiry, payment reconciliation).
  attachOrderSettlement(ctx);
  // Drops: the fulfil job of paid drop orders, the completion sweep, the lottery draws.
  registerDropJobs(ctx);
  // Drops: before a sale starts, the buyers' sessions and trading gates are loaded into this process's caches.
  const warmup = startDropWarmup(ctx, (msg, extra) => app.log.info(extra ?? {}, msg));
  app.addHook('onClose', async () => warmup.stop());
  // Account cancellations: the cooling-off sweep and the anonymisation job.
  registerAccountJobs(ctx);
  // Blind boxes, compose and transfers: the consume job, the reveal and expiry sweeps, the chain side.
  await startGoodsFlows(ctx);
  // Money out: the payout provider, automatic refunds of duplicates, the sandbox bank, reconciliation.
  startPayouts(app, ctx);
  // Bank-card quick payment: reconciliation of card payments.
  startCardPayJobs(ctx);
  // Messages: the SMS job and the order-expiring / drop-reminder sweeps.
  registerMessageJobs(ctx);
  // Every job handler is attached: the worker role (chain queue, indexer and mint worker; the job
  // worker) starts. A due job of any kind runs on the worker's first pass.
  const worker = await startWorkerRole(ctx, (msg, extra) => app.log.info(extra ?? {}, msg)).catch(async (err) => {
    await ctx.chain?.stop();
    await db.close();
    throw err;
  });
  app.addHook('onClose', async () => worker.stop());
  // On the embedded dev chain the demo sellers list their demo collectibles for real (approve + signed listOrder).
  const demoMarket = config.demoData && ctx.chain?.embedded && ctx.market?.settlement ? startDemoMarket(ctx, (msg, extra) => app.log.info(extra ?? {}, msg)) : undefined;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // An empty JSON body is an empty object (clients POST calls that take no payload).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const s = String(text);
    if (s.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(s));
    } catch {
      const err = new Error('invalid JSON') as Error & { statusCode: number };
      err.statusCode = 400;
      done(err, undefined);
    }
  });
  installErrorHandling(app);
  // The message center's SSE streams of this process; ended before the server closes (open streams would hold it).
  const messageHub = new MessageHub(ctx, (msg, extra) => app.log.warn(extra ?? {}, msg));
  app.addHook('preClose', async () => messageHub.stop());
  await installSecurityHeaders(app);

  // Compress what is not precompressed (SSR HTML, large JSON, SVG): gzip/brotli above 1 KiB.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  await app.register(swagger, {
    openapi: { info: { title: 'Marketplace gateway', version: '1.0.0' }, servers: [{ url: '/' }] },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/mvapi/docs' });

  // Liveness and readiness in the envelope: 503 (status 1018) while the chain node is gone. `worker` names
  // this process's part in the worker role — 'holder' (it holds the lease: jobs, chain queue, minting),
  // 'standby', 'off' (MARKET_JOBS=0), or 'thread' (WORKER_THREAD=1: its worker thread takes part, this
  // thread answers requests only) — so a proxy can send the holder a smaller share of the buyers.
  app.get('/healthz', { schema: { hide: true } }, async (req, reply) => {
    const chain = await chainHealth(ctx);
    const data = { db: db.dialect, chain, worker: worker.lease === undefined ? (config.market.workerThread ? 'thread' : 'off') : worker.active ? 'holder' : 'standby' };
    reply.header('cache-control', 'no-store');
    if (chain === 'down') return reply.code(503).send(body(Status.CHAIN_UNAVAILABLE, data, formatMessage('chainUnavailable', langOf(req))));
    return body(Status.OK, data, formatMessage('ok', langOf(req)));
  });
  mediaRoutes(app);
  mediaUploadRoutes(app, ctx);
  bankLogoRoutes(app);
  await app.register(
    async (api) => {
      accountRoutes(api, ctx);
      captchaRoutes(api, ctx);
      if (config.devMode) devRoutes(api, ctx);
      walletRoutes(api, ctx);
      chainRoutes(api, ctx);
      kycRoutes(api, ctx);
      catalogRoutes(api, ctx);
      contentRoutes(api, ctx);
      searchRoutes(api, ctx);
      marketRoutes(api, ctx);
      bidRoutes(api, ctx);
      orderRoutes(api, ctx, { isDropOrderBody, createDropOrderFor });
      paymentRoutes(api, ctx, () => notifier);
      ledgerRoutes(api, ctx);
      dropRoutes(api, ctx);
      boxRoutes(api, ctx);
      composeRoutes(api, ctx);
      shiftRoutes(api, ctx);
      settledRoutes(api, ctx);
      privacyRoutes(api, ctx);
      messageRoutes(api, ctx, messageHub);
      await uploadRoutes(api, ctx);
      await payoutRoutes(api, ctx);
      cardPayRoutes(api, ctx);
      await creatorRoutes(api, ctx);
      studioRoutes(api, ctx);
      inviteRoutes(api, ctx);
      await ticketRoutes(api, ctx);
      posterRoutes(api, ctx);
      if (config.devMode) devTicketRoutes(api, ctx);
    },
    { prefix: API_BASE },
  );
  await app.register(async (p) => paymentNotifyRoutes(p, ctx));
  // The operations console's API (docs/admin.md): its own prefix and staff token header, hidden from /mvapi/docs.
  await app.register(async (scope) => adminRoutes(scope, ctx, { releaseReviews: studioAdminRoutes }), { prefix: ADMIN_BASE });
  await app.register(async (p) => payoutNotifyRoutes(p, ctx));
  await app.register(async (p) => cardPayNotifyRoutes(p, ctx));

  const web = config.serveWeb ? await mountWeb(app, config) : undefined;
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    if (apiNotFound(req) || !web) return reply.code(404).send(notFoundBody(langOf(req)));
    // A missing build asset (e.g. a stale hashed chunk) is a plain 404, never an HTML page:
    // the client's chunk-load guard then reloads once.
    if (/^\/assets\/[^/]+\.(js|mjs|css|map|woff2?|png|svg|webp|jpg)$/.test(req.url.split('?')[0]!)) {
      return reply.code(404).type('text/plain').send('not found');
    }
    return web(req, reply);
  };
  // Pages are a catch-all GET route (API and static routes are more specific and win), so the
  // compression hooks apply to server-rendered HTML too; everything else unknown is a 404.
  if (web) app.get('/*', { schema: { hide: true } }, page);
  app.setNotFoundHandler(page);

  return {
    app,
    ctx,
    async close() {
      await app.close();
      demoMarket?.stop();
      await ctx.chain?.stop();
      await db.close();
    },
  };
}
