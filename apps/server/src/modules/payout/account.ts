import crypto from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import { PayoutNotifyPaths } from '@cfx/contract/payouts.ts';
import { IMAGE_TYPES } from '@cfx/contract/settled-rules.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { inTx, isUniqueViolation, lockKey } from '../../db/tx.ts';
import type { UploadPolicy } from '../uploads/index.ts';
import { saveUpload, uploadUrl, type IncomingFile } from '../uploads/index.ts';
import { findRegion } from './area-tree.ts';
import { activeCard, cardView } from './cards.ts';
import { findRealname, requireRealname } from './realname.ts';
import { notifyUrl, payoutRuntime, requireProvider, unavailable } from './runtime.ts';
import type { AccountOutcome } from '../../providers/payout/types.ts';

/**
 * The payout account ("second account", 二级账户): the user's sub-merchant at the payout provider,
 * opened for the verified person with the bound card as its settlement card, the ID-card photos and a
 * region + address (what a personal "micro" merchant needs). Balances stay in our ledger; the account is
 * where withdrawals are paid from to the card. opening → active | rejected (a rejected one may apply again).
 */

/** ID-card photos: private images (only their owner can read them back), under their own folder. */
export const IDENTITY_POLICY: UploadPolicy = {
  kind: 'image',
  visibility: 'private',
  folder: 'idcard',
  accept: IMAGE_TYPES,
  maxBytes: (c) => c.imageMaxBytes,
  badType: 'uploadBadImageType',
};

/** The owner's masked number of a sub-merchant: `SBM****5678`. */
export const maskMerchantNo = (no: string) => (no.length > 7 ? `${no.slice(0, 3)}****${no.slice(-4)}` : no);

async function identityOf(ctx: AppContext, userId: number) {
  const rows = await ctx.db.kysely
    .selectFrom('payout_identity')
    .innerJoin('uploads', 'uploads.id', 'payout_identity.upload_id')
    .select(['payout_identity.side', 'payout_identity.created_at', 'uploads.key'])
    .where('payout_identity.user_id', '=', userId)
    .execute();
  const side = (s: 'front' | 'back') => {
    const r = rows.find((x) => x.side === s);
    return r ? { side: s, url: uploadUrl(ctx, r.key), uploadedAt: Number(r.created_at), key: r.key } : null;
  };
  return { front: side('front'), back: side('back') };
}

/** Asks the provider about an account still opening (the web polls querySecondAccount). */
async function refreshOpening(ctx: AppContext, userId: number, requestNo: string) {
  const provider = payoutRuntime(ctx)?.provider;
  if (!provider) return;
  const outcome = await provider.queryAccount(requestNo).catch(() => null);
  if (outcome) await recordOutcome(ctx, userId, requestNo, outcome);
}

async function recordOutcome(ctx: AppContext, userId: number, requestNo: string, outcome: AccountOutcome) {
  const now = ctx.now();
  await ctx.db.kysely
    .updateTable('payout_accounts')
    .set(
      outcome.state === 'active'
        ? { state: 'active', merchant_no: outcome.merchantNo, opened_at: now, reject_reason: null, updated_at: now }
        : outcome.state === 'rejected'
          ? { state: 'rejected', reject_reason: outcome.reason, updated_at: now }
          : { merchant_no: outcome.merchantNo, updated_at: now },
    )
    .where('user_id', '=', userId)
    .where('request_no', '=', requestNo)
    .where('state', '=', 'opening')
    .execute();
  if (outcome.state === 'active') await registerCard(ctx, userId, outcome.merchantNo);
}

/** Registers the bound card as the withdrawal card of a newly opened account. */
async function registerCard(ctx: AppContext, userId: number, merchantNo: string) {
  const provider = requireProvider(ctx);
  const card = await activeCard(ctx.db.kysely, userId);
  if (!card || card.provider_bind_id) return;
  const { bindId } = await provider.bindCard({ merchantNo, cardNo: ctx.secrets.open(card.card_sealed), bankCode: card.bank_code });
  await ctx.db.kysely.updateTable('payout_cards').set({ provider_bind_id: bindId }).where('id', '=', Number(card.id)).where('status', '=', 'active').execute();
}

/** querySecondAccount: the account's state and what is still missing before it can be opened. */
export async function querySecondAccount(ctx: AppContext, userId: number) {
  let account = await ctx.db.kysely.selectFrom('payout_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (account?.state === 'opening') {
    await refreshOpening(ctx, userId, account.request_no);
    account = await ctx.db.kysely.selectFrom('payout_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }
  const realname = await findRealname(ctx, userId);
  const card = await activeCard(ctx.db.kysely, userId);
  const identity = await identityOf(ctx, userId);
  const user = await ctx.db.kysely.selectFrom('users').select('is_creator').where('id', '=', userId).executeTakeFirstOrThrow();
  const inFlight = await ctx.db.kysely
    .selectFrom('payout_withdrawals')
    .select((e) => [e.fn.countAll<number>().as('n'), e.fn.coalesce(e.fn.sum<number>('amount_fen'), e.val(0)).as('s')])
    .where('user_id', '=', userId)
    .where('status', 'in', ['requested', 'processing'])
    .executeTakeFirstOrThrow();
  const missing: ('realname' | 'card' | 'identity')[] = [];
  if (!realname) missing.push('realname');
  if (!card) missing.push('card');
  if (!identity.front || !identity.back) missing.push('identity');
  const region = account ? findRegion(account.province_code, account.city_code) : undefined;
  const photo = (p: typeof identity.front) => (p ? { side: p.side, url: p.url, uploadedAt: p.uploadedAt } : null);
  return {
    state: account?.state ?? ('none' as const),
    provider: account?.provider ?? ctx.config.payout.provider,
    accountNo: account?.merchant_no ? maskMerchantNo(account.merchant_no) : null,
    realname: { verified: Boolean(realname), nameMasked: realname?.nameMasked ?? '', idMasked: realname?.idMasked ?? '' },
    card: card ? cardView(card, realname?.nameMasked ?? '') : null,
    identity: { front: photo(identity.front), back: photo(identity.back) },
    region: region ? { provinceCode: region.province.code, provinceName: region.province.name, cityCode: region.city.code, cityName: region.city.name } : null,
    missing,
    rejectReason: account?.state === 'rejected' ? account.reject_reason : null,
    openedAt: account?.opened_at === null || account?.opened_at === undefined ? null : Number(account.opened_at),
    inFlight: { count: Number(inFlight.n), amountFen: Number(inFlight.s) },
    isCreator: Boolean(Number(user.is_creator)),
  };
}

/**
 * createSecondAccound {provinceCode, cityCode, address}: opens the payout account at the provider for
 * the verified person with the bound card and the ID photos. Once per user (a rejected application may
 * be sent again); the sandbox opens at once, YeePay reviews (state opening until its answer).
 */
export async function createSecondAccount(ctx: AppContext, userId: number, input: { provinceCode: string; cityCode: string; address: string }) {
  const provider = requireProvider(ctx);
  const realname = await requireRealname(ctx, userId);
  const existing = await ctx.db.kysely.selectFrom('payout_accounts').select(['state']).where('user_id', '=', userId).executeTakeFirst();
  if (existing && existing.state !== 'rejected') throw new ApiError(Status.PAYOUT_STATE, existing.state === 'opening' ? 'accountOpening' : 'accountAlreadyOpen');
  const card = await activeCard(ctx.db.kysely, userId);
  if (!card) throw new ApiError(Status.PAYOUT_STATE, 'cardNone');
  const identity = await identityOf(ctx, userId);
  if (!identity.front || !identity.back) throw new ApiError(Status.PAYOUT_STATE, 'accountNeedIdentity');
  const region = findRegion(input.provinceCode, input.cityCode);
  if (!region) throw new ApiError(Status.INVALID, 'accountBadRegion');
  const address = input.address.trim();
  if ([...address].length < 5 || [...address].length > 100) throw new ApiError(Status.INVALID, 'accountBadAddress');
  const now = ctx.now();
  const requestNo = `PA${now}${crypto.randomBytes(6).toString('hex')}`;
  // The row first (state opening): two concurrent calls cannot both apply.
  try {
    await inTx(ctx, async (trx) => {
      await lockKey(ctx, trx, `payout:${userId}`);
      const row = await trx.selectFrom('payout_accounts').select('state').where('user_id', '=', userId).executeTakeFirst();
      const values = { provider: provider.name, state: 'opening' as const, request_no: requestNo, merchant_no: null, province_code: region.province.code, city_code: region.city.code, address_sealed: ctx.secrets.seal(address), reject_reason: null, opened_at: null, updated_at: now };
      if (!row) await trx.insertInto('payout_accounts').values({ user_id: userId, created_at: now, ...values }).execute();
      else if (row.state === 'rejected') await trx.updateTable('payout_accounts').set(values).where('user_id', '=', userId).where('state', '=', 'rejected').execute();
      else throw new ApiError(Status.PAYOUT_STATE, 'accountAlreadyOpen');
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.PAYOUT_STATE, 'accountAlreadyOpen');
    throw err;
  }
  let outcome: AccountOutcome;
  try {
    outcome = await provider.openAccount({
      requestNo,
      name: realname.name,
      idNumber: realname.idNumber,
      mobile: ctx.secrets.open(card.mobile_sealed),
      cardNo: ctx.secrets.open(card.card_sealed),
      bankCode: card.bank_code,
      provinceCode: region.province.code,
      cityCode: region.city.code,
      address,
      identityFront: identity.front.key,
      identityBack: identity.back.key,
      notifyUrl: notifyUrl(ctx, PayoutNotifyPaths[provider.name]),
    });
  } catch {
    // Not reached: the application stays `opening` and querySecondAccount asks the provider again.
    throw unavailable();
  }
  await recordOutcome(ctx, userId, requestNo, outcome);
  const view = await querySecondAccount(ctx, userId);
  return { view, message: view.state === 'active' ? ('accountOpened' as const) : ('accountOpening' as const) };
}

/** uploadIdentity?side=front|back: an ID-card photo (private image), replacing the earlier one of that side until the account is opened. */
export async function uploadIdentity(ctx: AppContext, userId: number, side: string, part: IncomingFile | undefined, log?: { error: (...a: unknown[]) => void }) {
  if (side !== 'front' && side !== 'back') {
    part?.file.resume();
    throw new ApiError(Status.INVALID, 'identityBadSide');
  }
  const account = await ctx.db.kysely.selectFrom('payout_accounts').select('state').where('user_id', '=', userId).executeTakeFirst();
  if (account && account.state !== 'rejected') {
    part?.file.resume();
    throw new ApiError(Status.PAYOUT_STATE, account.state === 'opening' ? 'accountOpening' : 'accountAlreadyOpen');
  }
  const saved = await saveUpload(ctx, userId, part, IDENTITY_POLICY, log);
  const which: 'front' | 'back' = side;
  const now = ctx.now();
  await inTx(ctx, async (trx) => {
    await trx.deleteFrom('payout_identity').where('user_id', '=', userId).where('side', '=', which).execute();
    await trx.insertInto('payout_identity').values({ user_id: userId, side: which, upload_id: saved.id, created_at: now }).execute();
  });
  return { side: which, url: saved.url, uploadedAt: now };
}
