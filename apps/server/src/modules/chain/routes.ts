import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, Status } from '@cfx/contract/envelope.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { ChainPaths } from '@cfx/contract/routes.ts';
import { chainBlock, chainBlockQuery, chainInfo, chainRecord } from '@cfx/contract/chain.ts';
import type { AppContext } from '../../context.ts';
import { body, langOf, ok } from '../../http/envelope.ts';
import { getChainBlock } from './get-chain-block.ts';
import { IpRateLimit } from './ip-rate-limit.ts';
import { listChainRecords } from './list-chain-records.ts';

/** Methods the built-in dev wallet needs; nothing that reads or changes the node's own state. */
const DEV_RPC_METHODS = new Set([
  'cfx_getStatus', 'cfx_epochNumber', 'cfx_getNextNonce', 'cfx_gasPrice', 'cfx_estimateGasAndCollateral',
  'cfx_sendRawTransaction', 'cfx_getTransactionReceipt', 'cfx_getTransactionByHash', 'cfx_call', 'cfx_getBalance', 'cfx_clientVersion',
]);

export function chainRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['chain'];
  r.get(ChainPaths.info, { schema: { tags, response: { 200: envelope(chainInfo.nullable()) } } }, async (req) => {
    const c = ctx.chain;
    const devWallet = Boolean(c?.embedded && ctx.config.devMode);
    if (!c) return ok(req, { enabled: false, networkId: ctx.config.chain.networkId, collectible: '', exchange: '', collectibleHex: '', exchangeHex: '', explorerUrl: ctx.config.chain.explorerUrl, devWallet: false, rpcPath: '' });
    return ok(req, {
      enabled: true,
      networkId: c.networkId,
      collectible: c.collectible,
      exchange: c.exchange,
      collectibleHex: c.collectibleHex,
      exchangeHex: c.exchangeHex,
      explorerUrl: c.explorerUrl,
      devWallet: devWallet,
      rpcPath: devWallet ? `/mvapi/public${ChainPaths.rpc}` : '',
    });
  });
  r.get(
    ChainPaths.chainRecord,
    { schema: { tags, querystring: z.object({ tokenId: z.string().regex(/^\d{1,78}$/), contract: z.string().max(80).optional() }), response: { 200: envelope(z.array(chainRecord).nullable()) } } },
    async (req) => ok(req, await listChainRecords(ctx, req.query.tokenId, req.query.contract)),
  );
  // The block a draw proof depends on, for anyone (the proof pages check it in the browser):
  // read-only, one epoch per call, rate-limited per client IP (HTTP 429 + 1006 beyond the limit).
  const blockLimit = new IpRateLimit(ctx.config.chain.blockQueriesPerMinute, 60_000, () => ctx.monotonicNow());
  r.get(ChainPaths.block, { schema: { tags, querystring: chainBlockQuery, response: { 200: envelope(chainBlock.nullable()), 429: envelope(z.null()) } } }, async (req, reply) => {
    const taken = blockLimit.take(req.ip);
    if (!taken.ok) {
      return reply
        .code(429)
        .header('retry-after', String(taken.retryAfterS))
        .header('cache-control', 'no-store')
        .send(body(Status.RATE_LIMITED, null, formatMessage('chainBlockTooMany', langOf(req), { s: taken.retryAfterS })));
    }
    const block = await getChainBlock(ctx, Number(req.query.epoch));
    // A confirmed epoch's pivot block does not change: browsers and proxies may keep it a while.
    reply.header('cache-control', block.confirmed ? 'public, max-age=300' : 'no-store');
    return ok(req, block);
  });
  // JSON-RPC proxy to the embedded dev node, for the dev wallet in the browser (DEV_MODE=1 only; never against a real network).
  if (ctx.chain?.embedded && ctx.config.devMode) {
    const rpcUrl = ctx.chain.rpcUrl;
    app.post(ChainPaths.rpc, async (req, reply) => {
      const body = req.body as { method?: unknown; id?: unknown } | undefined;
      if (!body || typeof body.method !== 'string' || !DEV_RPC_METHODS.has(body.method)) {
        return reply.send({ jsonrpc: '2.0', id: body?.id ?? null, error: { code: -32601, message: 'method not available' } });
      }
      const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
      return reply.type('application/json').send(await res.text());
    });
  }
}
