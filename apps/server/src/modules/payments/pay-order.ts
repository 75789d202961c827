import { Status } from '@cfx/contract/envelope.ts';
import type { PayMethod } from '@cfx/contract/market.ts';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import type { PaymentProvider } from '../../providers/payment/types.ts';
import { inTx } from '../../db/tx.ts';
import { invalidateListing } from '../market/index.ts';
import { requireSettlement } from '../market/index.ts';
import { FILLED_REVERTS } from '../market/index.ts';
import { buyerOrder, closeUnpaidOrder } from '../orders/index.ts';
import { notFound } from '../market/index.ts';
import { settleRequestOf } from '../orders/index.ts';
import { moveOrder } from '../orders/index.ts';
import { dropSubject, isDropOrderNo } from '../drops/index.ts';
import { cardPayAvailable } from '../payout/index.ts';
import { payInBatch, type PayAnswer } from './pay-batch.ts';

/** Payment methods available now. */
export function availableMethods(ctx: AppContext): PayMethod[] {
  const p = ctx.market?.providers;
  return [...(p?.sandbox ? (['sandbox'] as const) : []), ...(p?.alipay ? (['alipay'] as const) : []), ...(p?.wechat ? (['wechat'] as const) : []), 'balance', ...(cardPayAvailable(ctx) ? (['card'] as const) : [])];
}

export function providerFor(ctx: AppContext, method: 'sandbox' | 'alipay' | 'wechat'): PaymentProvider {
  const p = method === 'sandbox' ? ctx.market?.providers.sandbox : method === 'wechat' ? ctx.market?.providers.wechat : ctx.market?.providers.alipay;
  if (!p) throw new ApiError(Status.PAYMENT_REFUSED, 'payMethodUnavailable');
  return p;
}

/**
 * pay {orderNo, method}. Before any money moves, the seller's order is dry-run on chain as the
 * settlement will run it: a listing that can never settle (token moved, approval revoked) is
 * invalidated and the order cancelled (1013 listingGone) instead of taking the buyer's money.
 *
 * - balance: one transaction moves the price from the buyer's balance to escrow (refused with
 *   1016 when short), marks the order paid and inserts its settlement job — shared with the other
 *   balance payments arriving meanwhile (group commit, pay-batch.ts). A drop order's payment goes
 *   there without reading its order first: the batch checks the order under its lock and answers
 *   as the read would have (1404, 1012, expired, not payable).
 * - sandbox / alipay / wechat: the order becomes `paying` and the provider's pay URL (for WeChat Pay
 *   Native the `code_url` the web shows as a QR code) is returned; the
 *   provider's verified notify later marks it paid (apply-payment.ts).
 */
export async function payOrder(ctx: AppContext, userId: number, input: { orderNo: string; method: PayMethod }) {
  if (input.method === 'balance' && isDropOrderNo(input.orderNo)) {
    // No chain dry run for a drop order: its collectibles are minted after payment ('check': not a drop order after all).
    const a = await payInBatch(ctx, { orderNo: input.orderNo, kind: 'drop', userId });
    if (a.outcome !== 'check') return balanceAnswer(ctx, input.orderNo, a);
  }
  const o = await buyerOrder(ctx, userId, input.orderNo);
  if (o.status === 'expired') throw new ApiError(Status.ORDER_STATE, 'orderExpired');
  if (o.status !== 'created' && o.status !== 'paying') throw new ApiError(Status.ORDER_STATE, 'orderNotPayable');
  // A bank card pays through its own calls (SMS code to the reserved phone): modules/card-pay.
  if (input.method === 'card') throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayUseCardCalls');
  const provider = input.method === 'balance' ? undefined : providerFor(ctx, input.method);
  // A drop order has no seller's order to dry-run: its collectibles are minted after payment.
  if (o.kind !== 'drop') {
    const chain = requireSettlement(ctx);
    const verdict = await chain.check(await settleRequestOf(ctx, o));
    if (!verdict.ok && (verdict.permanent || FILLED_REVERTS.has(verdict.reason))) {
      await invalidateListing(ctx, Number(o.listing_id), verdict.reason);
      await closeUnpaidOrder(ctx, o.order_no, 'cancelled', { reason: `listing no longer valid: ${verdict.reason}` });
      throw new ApiError(Status.GOODS_STATE, 'listingGone');
    }
  }
  const now = ctx.now();
  const price = Number(o.price_fen);
  // Shares one transaction with the other balance payments arriving meanwhile (pay-batch.ts).
  if (input.method === 'balance') return balanceAnswer(ctx, o.order_no, await payInBatch(ctx, { orderNo: o.order_no, kind: o.kind, userId }));
  await inTx(ctx, async (trx) => {
    if (o.status === 'created') {
      const moved = await moveOrder(trx, o.order_no, 'created', 'paying', now, { pay_method: input.method }, `paying via ${input.method}`);
      if (!moved) throw new ApiError(Status.ORDER_STATE, 'orderNotPayable');
    } else {
      const res = await trx.updateTable('orders').set({ pay_method: input.method }).where('order_no', '=', o.order_no).where('status', '=', 'paying').executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.ORDER_STATE, 'orderNotPayable');
    }
  });
  const goods = await ctx.db.kysely.selectFrom('goods').select(['name', 'serial']).where('id', '=', Number(o.goods_id)).executeTakeFirst();
  const base = ctx.market?.notifyBaseUrl() ?? '';
  const ret = ctx.config.market.payment.returnUrl;
  // A provider that cannot be reached (WeChat Pay's order API) leaves the order paying: 1016, try again or another method.
  const { payUrl } = await provider!.createPayment({
    orderNo: o.order_no,
    amountFen: price,
    subject: o.kind === 'drop' ? await dropSubject(ctx, o) : goods ? `${goods.name} #${goods.serial}` : o.order_no,
    expiresAt: Number(o.expires_at),
    returnUrl: `${ret}${ret.includes('?') ? '&' : '?'}orderNo=${encodeURIComponent(o.order_no)}`,
    notifyUrl: `${base}${PaymentNotifyPaths[input.method as 'sandbox' | 'alipay' | 'wechat']}`,
  }).catch((err: unknown) => {
    if (err instanceof ApiError) throw err;
    throw new ApiError(Status.PAYMENT_REFUSED, 'payProviderDown');
  });
  return { orderNo: o.order_no, method: input.method, status: 'paying' as const, payUrl, expiresAt: Number(o.expires_at) };
}

/** The answer to a payment from balance by the batch's outcome (the errors buyerOrder and payOrder give for the same order). */
async function balanceAnswer(ctx: AppContext, orderNo: string, a: PayAnswer) {
  switch (a.outcome) {
    case 'ok':
      ctx.jobs.wake();
      return { orderNo, method: 'balance' as const, status: 'paid' as const, payUrl: null, expiresAt: a.expiresAt! };
    case 'notFound':
      throw notFound('orderNotFound');
    case 'notYours':
      throw new ApiError(Status.FORBIDDEN, 'orderNotYours');
    case 'due':
      await closeUnpaidOrder(ctx, orderNo, 'expired', { dueOnly: true, open: true });
      throw new ApiError(Status.ORDER_STATE, 'orderExpired');
    case 'expired':
      throw new ApiError(Status.ORDER_STATE, 'orderExpired');
    case 'short':
      throw new ApiError(Status.PAYMENT_REFUSED, 'balanceInsufficient');
    case 'notPayable':
    case 'check':
      throw new ApiError(Status.ORDER_STATE, 'orderNotPayable');
  }
}
