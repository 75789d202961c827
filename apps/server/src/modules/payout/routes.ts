import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import * as P from '@cfx/contract/payouts.ts';
import { BANK_LOGO_PREFIX, PayoutNotifyPaths, PayoutPaths } from '@cfx/contract/payouts.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { langOf, ok } from '../../http/envelope.ts';
import { filePart } from '../uploads/index.ts';
import { createSecondAccount, IDENTITY_POLICY, querySecondAccount, uploadIdentity } from './account.ts';
import { AREA_TREE } from './area-tree.ts';
import { BANKS } from './bank-bins.ts';
import { bankLogoSvg, bankLogoUrl } from './bank-logo.ts';
import { affirmBinding, resendBindingCode, startBinding, unbindCard } from './cards.ts';
import { bindSplitRelation, createMerchant, getMerchant, getSplitRelation, updateMerchant } from './merchant.ts';
import { reconcilePayouts } from './reconcile.ts';
import { createPayoutRuntime, payoutRuntime } from './runtime.ts';
import { runSandboxBank } from './sandbox-bank.ts';
import { applyRefundOutcome, listStrayCredits, refundStrayCredit, registerStrayRefundJobs } from './stray-refunds.ts';
import { applyPayoutNotice, listWithdrawals, previewWithdrawal, requestWithdrawal } from './withdraw.ts';

/**
 * Money out: the provider, the jobs (automatic refunds of duplicates), the sandbox bank (every second)
 * and reconciliation (every 15 s) on the job worker (ctx.jobs). Called by buildApp after startMarket.
 */
export function startPayouts(app: FastifyInstance, ctx: AppContext) {
  createPayoutRuntime(app, ctx);
  const jobs = ctx.jobs;
  registerStrayRefundJobs(ctx);
  jobs.periodic('payout-sandbox-bank', 1000, () => runSandboxBank(ctx));
  jobs.periodic('reconcile-payouts', 15_000, () => reconcilePayouts(ctx));
}

const BANK_LIST = BANKS.map((b) => ({ code: b.code, name: b.name, logo: bankLogoUrl(b.code) }));
const AREA_BODY = JSON.stringify({ status: '000000', code: '000000', data: AREA_TREE, message: '', msg: '' });

/** The gateway calls (plus the withdrawal and refund calls). */
export async function payoutRoutes(api: FastifyInstance, ctx: AppContext) {
  const r = api.withTypeProvider<ZodTypeProvider>();
  const tags = ['payout'];
  const user = (req: FastifyRequest) => requireUserId(ctx, req);

  r.post(PayoutPaths.querySecondAccount, { schema: { tags, response: { 200: P.secondAccountResponse } } }, async (req) => ok(req, await querySecondAccount(ctx, await user(req))));
  r.post(PayoutPaths.createSecondAccound, { schema: { tags, body: P.createAccountBody, response: { 200: P.secondAccountResponse } } }, async (req) => {
    const { view, message } = await createSecondAccount(ctx, await user(req), req.body);
    return ok(req, view, message);
  });
  r.post(PayoutPaths.addBindCard, { schema: { tags, body: P.addBindCardBody, response: { 200: P.bindRequestResponse } } }, async (req) => {
    const res = await startBinding(ctx, await user(req), 'bind', req.body, req.ip);
    return ok(req, res, 'smsSent');
  });
  r.post(PayoutPaths.editSecondAccountBankCard, { schema: { tags, body: P.addBindCardBody, response: { 200: P.bindRequestResponse } } }, async (req) => {
    const res = await startBinding(ctx, await user(req), 'replace', req.body, req.ip);
    return ok(req, res, 'smsSent');
  });
  r.post(PayoutPaths.editSecondAccountMobile, { schema: { tags, body: P.editMobileBody, response: { 200: P.bindRequestResponse } } }, async (req) => {
    const res = await startBinding(ctx, await user(req), 'mobile', req.body, req.ip);
    return ok(req, res, 'smsSent');
  });
  r.post(PayoutPaths.getVerifyCode, { schema: { tags, body: P.getVerifyCodeBody, response: { 200: P.nullResponse } } }, async (req) => {
    await resendBindingCode(ctx, await user(req), req.body, req.ip);
    return ok(req, null, 'smsSent');
  });
  r.post(PayoutPaths.affirmBindCard, { schema: { tags, body: P.affirmBindCardBody, response: { 200: P.boundCardResponse } } }, async (req) => {
    const { card, message } = await affirmBinding(ctx, await user(req), req.body);
    return ok(req, card, message);
  });
  r.post(PayoutPaths.unbindAccountBankCard, { schema: { tags, body: P.unbindCardBody, response: { 200: P.nullResponse } } }, async (req) => {
    await unbindCard(ctx, await user(req), req.body);
    return ok(req, null, 'cardUnbound');
  });

  r.post(PayoutPaths.getSecondMerchantDetail, { schema: { tags, response: { 200: P.merchantResponse } } }, async (req) => ok(req, await getMerchant(ctx, await user(req))));
  r.post(PayoutPaths.createSecondMerchant, { schema: { tags, body: P.merchantBody, response: { 200: P.merchantResponse } } }, async (req) => ok(req, await createMerchant(ctx, await user(req), req.body), 'merchantSaved'));
  r.post(PayoutPaths.updateSecondMerchant, { schema: { tags, body: P.merchantBody, response: { 200: P.merchantResponse } } }, async (req) => ok(req, await updateMerchant(ctx, await user(req), req.body), 'merchantSaved'));
  r.post(PayoutPaths.splitAccountRelationBind, { schema: { tags, response: { 200: P.splitRelationResponse } } }, async (req) => ok(req, await bindSplitRelation(ctx, await user(req)), 'splitBound'));
  r.post(PayoutPaths.getSplitAccountRelationBind, { schema: { tags, response: { 200: P.splitRelationResponse } } }, async (req) => ok(req, await getSplitRelation(ctx, await user(req))));

  r.post(PayoutPaths.bankList, { schema: { tags, response: { 200: P.bankListResponse } } }, async (req) => ok(req, BANK_LIST));
  // GET, public and static: the same bytes for a day in every cache.
  api.get(PayoutPaths.areaTree, { schema: { tags, response: { 200: P.areaTreeResponse } } }, async (_req, reply) => {
    return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=86400').send(AREA_BODY);
  });

  r.post(PayoutPaths.withdrawPreview, { schema: { tags, body: P.withdrawPreviewBody, response: { 200: P.withdrawPreviewResponse } } }, async (req) => {
    return ok(req, await previewWithdrawal(ctx, await user(req), req.body.amountFen, langOf(req)));
  });
  r.post(PayoutPaths.withdraw, { schema: { tags, body: P.withdrawBody, response: { 200: P.withdrawalResponse } } }, async (req) => {
    return ok(req, await requestWithdrawal(ctx, await user(req), req.body), 'withdrawSubmitted');
  });
  r.post(PayoutPaths.pageListWithdraw, { schema: { tags, body: P.pageBody, response: { 200: P.withdrawalPageResponse } } }, async (req) => {
    return ok(req, await listWithdrawals(ctx, await user(req), req.body.pageNum, req.body.pageSize));
  });
  r.post(PayoutPaths.pageListStrayCredit, { schema: { tags, body: P.pageBody, response: { 200: P.strayCreditPageResponse } } }, async (req) => {
    return ok(req, await listStrayCredits(ctx, await user(req), req.body.pageNum, req.body.pageSize));
  });
  r.post(PayoutPaths.refundStrayCredit, { schema: { tags, body: P.refundStrayBody, response: { 200: P.strayRefundResponse } } }, async (req) => {
    return ok(req, await refundStrayCredit(ctx, await user(req), req.body.paymentId), 'refundSubmitted');
  });

  // uploadIdentity: multipart in its own scope (only this route parses multipart/form-data here).
  await api.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false });
    scope.withTypeProvider<ZodTypeProvider>().post(
      PayoutPaths.uploadIdentity,
      { schema: { tags, consumes: ['multipart/form-data'], querystring: P.uploadIdentityQuery, response: { 200: P.identityResponse } } },
      async (req, reply) => {
        try {
          const userId = await user(req);
          const part = await filePart(ctx, req, IDENTITY_POLICY);
          return ok(req, await uploadIdentity(ctx, userId, req.query.side, part, req.log), 'identityUploaded');
        } catch (err) {
          if (!req.raw.complete) reply.header('connection', 'close');
          throw err;
        }
      },
    );
  });
}

/** Bank logos (SVG badges) at /media/banks/<code>.svg, outside the gateway like the other media. */
export function bankLogoRoutes(app: FastifyInstance) {
  const svgs = new Map(BANKS.map((b) => [`${b.code}.svg`, bankLogoSvg(b)]));
  app.get<{ Params: { file: string } }>(`${BANK_LOGO_PREFIX}:file`, { schema: { hide: true } }, async (req, reply) => {
    const svg = svgs.get(req.params.file);
    if (!svg) return reply.code(404).type('text/plain').send('not found');
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
  });
}

/**
 * The payout providers' notifies and the sandbox's refund notifies, outside the gateway: form-encoded
 * POSTs answered with the provider's acknowledgement once applied (or already applied), 400 for a bad
 * signature, 500 when it could not be recorded (the provider retries).
 */
export async function payoutNotifyRoutes(app: FastifyInstance, ctx: AppContext) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, text, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(text))));
  });
  const params = (req: FastifyRequest) => {
    const p: Record<string, string> = {};
    if (req.body && typeof req.body === 'object') for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) if (typeof v === 'string') p[k] = v;
    return p;
  };
  for (const name of ['sandbox', 'yeepay'] as const) {
    app.post(PayoutNotifyPaths[name], { schema: { hide: true } }, async (req, reply: FastifyReply) => {
      reply.type('text/plain; charset=utf-8');
      const provider = payoutRuntime(ctx)?.provider;
      if (!provider || provider.name !== name) return reply.code(404).send('failure');
      const notice = provider.verifyNotify(params(req));
      if (!notice) {
        req.log.warn({ provider: name }, 'payout notify with a bad signature');
        return reply.code(400).send('failure');
      }
      try {
        const outcome = await applyPayoutNotice(ctx, name, notice);
        req.log.info({ provider: name, withdrawNo: notice.withdrawNo, status: notice.status, outcome }, 'payout notify');
        if (outcome === 'mismatch' || outcome === 'unknown') return reply.code(400).send('failure');
        return reply.send(provider.notifyAck);
      } catch (err) {
        req.log.error({ err, provider: name }, 'payout notify could not be applied');
        return reply.code(500).send('failure');
      }
    });
  }
  app.post(PayoutNotifyPaths.refundSandbox, { schema: { hide: true } }, async (req, reply) => {
    reply.type('text/plain; charset=utf-8');
    const sandbox = ctx.market?.providers.sandbox;
    if (!sandbox) return reply.code(404).send('failure');
    const outcome = sandbox.verifyRefundNotify(params(req));
    if (!outcome) {
      req.log.warn('refund notify with a bad signature');
      return reply.code(400).send('failure');
    }
    try {
      const applied = await applyRefundOutcome(ctx, outcome.refundNo, outcome);
      req.log.info({ refundNo: outcome.refundNo, status: outcome.status, applied }, 'refund notify');
      return applied === 'unknown' ? reply.code(400).send('failure') : reply.send('success');
    } catch (err) {
      req.log.error({ err }, 'refund notify could not be applied');
      return reply.code(500).send('failure');
    }
  });
}
