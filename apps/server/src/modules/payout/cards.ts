import crypto from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import { MOBILE_RE } from '@cfx/contract/limits.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import type { CardRequestPurpose } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { inTx, isUniqueViolation, lockKey, type Q } from '../../db/tx.ts';
import { consumeSmsCode, issueSmsCode } from '../accounts/index.ts';
import { maskName } from '../kyc/index.ts';
import { bankLogoUrl } from './bank-logo.ts';
import { lookupCard, luhnValid, maskCardNo, maskMobile, normaliseCardNo } from './card-number.ts';
import { requireRealname, sameHolder, findRealname } from './realname.ts';
import { requireProvider, unavailable } from './runtime.ts';

/**
 * Bank cards (docs/payouts.md "Cards"). A binding — a new card (addBindCard), a replacement
 * (editSecondAccountBankCard) or a new reserved phone (editSecondAccountMobile) — runs the checks in
 * this order, each with its own message: the slider captcha; a verified real name; the holder typed is
 * that person; the card number's Luhn checksum; its bank and kind from the BIN table (debit cards of a
 * supported bank only); the phone's form; the card not bound to another account; the bank's 4-element
 * check (the payout provider). Then a 6-digit code goes by SMS to the reserved phone (60 s apart and
 * daily caps, like every code) and the request waits for it 10 minutes; affirmBindCard with the right
 * code binds the card. Card number and phone are stored sealed (AES-GCM, ctx.secrets) with a keyed
 * digest of the number; answers show `6222 **** **** 1234` and `138****8000`.
 */
export const CARD_SMS_TYPE = '6';

const cardDigest = (ctx: AppContext, cardNo: string) => ctx.secrets.digest(`card:${cardNo}`);

export function cardView(row: { id: number; bank_code: string; bank_name: string; card_masked: string; last4: string; mobile_masked: string; bound_at: number }, holderMasked: string) {
  return {
    id: Number(row.id),
    bankCode: row.bank_code,
    bankName: row.bank_name,
    logo: bankLogoUrl(row.bank_code),
    cardMasked: row.card_masked,
    last4: row.last4,
    mobileMasked: row.mobile_masked,
    holderMasked,
    boundAt: Number(row.bound_at),
  };
}

export async function activeCard(q: Q, userId: number) {
  return q.selectFrom('payout_cards').selectAll().where('user_id', '=', userId).where('status', '=', 'active').executeTakeFirst();
}

/** My bound card (masked), or null. */
export async function getBoundCard(ctx: AppContext, userId: number) {
  const card = await activeCard(ctx.db.kysely, userId);
  if (!card) return null;
  const r = await findRealname(ctx, userId);
  return cardView(card, r ? r.nameMasked : maskName(''));
}

/** Withdrawals of the user requested or processing (a card cannot change under them). */
export async function withdrawalsInFlight(q: Q, userId: number): Promise<number> {
  const r = await q.selectFrom('payout_withdrawals').select((e) => e.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('status', 'in', ['requested', 'processing']).executeTakeFirstOrThrow();
  return Number(r.n);
}

const refused = (key: ConstructorParameters<typeof ApiError>[1], vars: Record<string, string | number> = {}) => new ApiError(Status.CARD_REFUSED, key, vars);

/** Starts a binding: every check, then the SMS code to the reserved phone. */
export async function startBinding(
  ctx: AppContext,
  userId: number,
  purpose: CardRequestPurpose,
  input: { name?: string; idNumber?: string; cardNo?: string; mobile: string; NECaptchaValidate: string },
  ip: string,
) {
  const provider = requireProvider(ctx);
  if (!(await ctx.captcha.verify(input.NECaptchaValidate))) throw new ApiError(Status.BAD_CAPTCHA, 'badCaptcha');
  const realname = await requireRealname(ctx, userId);
  const current = await activeCard(ctx.db.kysely, userId);
  if (purpose === 'bind' && current) throw new ApiError(Status.PAYOUT_STATE, 'cardAlreadyBound');
  if (purpose !== 'bind' && !current) throw new ApiError(Status.PAYOUT_STATE, 'cardNone');
  if (purpose === 'replace' && (await withdrawalsInFlight(ctx.db.kysely, userId)) > 0) throw new ApiError(Status.PAYOUT_STATE, 'cardBusyWithdrawal');

  let cardNo: string;
  if (purpose === 'mobile') {
    cardNo = ctx.secrets.open(current!.card_sealed);
  } else {
    if (!sameHolder(realname, input.name ?? '', input.idNumber ?? '')) throw refused('cardHolderMismatch');
    cardNo = normaliseCardNo(input.cardNo ?? '');
    if (!luhnValid(cardNo)) throw refused('cardBadNumber');
  }
  const found = lookupCard(cardNo);
  if (found.kind === 'unknown') throw refused('cardUnknownBank');
  if (found.kind === 'credit') throw refused('cardCreditNotAllowed');
  const mobile = input.mobile.trim();
  if (!MOBILE_RE.test(mobile)) throw refused('cardBadMobile');
  const digest = cardDigest(ctx, cardNo);
  if (purpose === 'replace' && digest === current!.card_digest) throw new ApiError(Status.PAYOUT_STATE, 'cardSameCard');
  if (purpose === 'mobile' && mobile === ctx.secrets.open(current!.mobile_sealed)) throw new ApiError(Status.PAYOUT_STATE, 'cardSameMobile');
  const other = await ctx.db.kysely.selectFrom('payout_cards').select('user_id').where('card_digest', '=', digest).where('status', '=', 'active').executeTakeFirst();
  if (other && Number(other.user_id) !== userId) throw refused('cardInUse');

  let verdict;
  try {
    verdict = await provider.verifyCard({ name: realname.name, idNumber: realname.idNumber, cardNo, mobile, bankCode: found.bank.code });
  } catch {
    throw unavailable();
  }
  if (!verdict.ok) throw refused(verdict.reason === 'unsupported' ? 'cardUnknownBank' : 'cardElementsMismatch');

  // The code first: a refused send (too soon, daily cap) leaves no request behind.
  await issueSmsCode(ctx, mobile, CARD_SMS_TYPE, ip);
  const now = ctx.now();
  const bindId = `BR${crypto.randomBytes(12).toString('hex')}`;
  const row = {
    id: bindId,
    user_id: userId,
    purpose,
    card_id: purpose === 'mobile' ? Number(current!.id) : null,
    status: 'pending' as const,
    card_sealed: ctx.secrets.seal(cardNo),
    card_digest: digest,
    bank_code: found.bank.code,
    bank_name: found.bank.name,
    card_masked: maskCardNo(cardNo),
    last4: cardNo.slice(-4),
    mobile_sealed: ctx.secrets.seal(mobile),
    mobile_masked: maskMobile(mobile),
    expires_at: now + ctx.config.payout.bindTtlMs,
    created_at: now,
    done_at: null,
  };
  await inTx(ctx, async (trx) => {
    // One binding in progress per user: a new one voids the earlier.
    await trx.updateTable('payout_card_requests').set({ status: 'void', done_at: now }).where('user_id', '=', userId).where('status', '=', 'pending').execute();
    await trx.insertInto('payout_card_requests').values(row).execute();
  });
  return { bindId, purpose, bankCode: row.bank_code, bankName: row.bank_name, logo: bankLogoUrl(row.bank_code), cardMasked: row.card_masked, mobileMasked: row.mobile_masked, expiresAt: row.expires_at };
}

async function pendingRequest(ctx: AppContext, userId: number, bindId: string) {
  const r = await ctx.db.kysely.selectFrom('payout_card_requests').selectAll().where('id', '=', bindId).executeTakeFirst();
  if (!r || Number(r.user_id) !== userId || r.status !== 'pending' || Number(r.expires_at) <= ctx.now()) throw new ApiError(Status.PAYOUT_STATE, 'cardBindNotFound');
  return r;
}

/** getVerifyCode: the code of a pending binding again (the SMS limits apply). */
export async function resendBindingCode(ctx: AppContext, userId: number, input: { bindId: string; NECaptchaValidate: string }, ip: string) {
  requireProvider(ctx);
  if (!(await ctx.captcha.verify(input.NECaptchaValidate))) throw new ApiError(Status.BAD_CAPTCHA, 'badCaptcha');
  const r = await pendingRequest(ctx, userId, input.bindId);
  await issueSmsCode(ctx, ctx.secrets.open(r.mobile_sealed), CARD_SMS_TYPE, ip);
  return { mobileMasked: r.mobile_masked };
}

/**
 * affirmBindCard: the code of the reserved phone completes the binding in one transaction (the request
 * pending → done, then the card): one active card per user and per card number is kept by the partial
 * unique indexes whatever concurrent calls do. With an open payout account the provider registers the
 * new card as the withdrawal card first (and cancels the old one after a replacement).
 */
export async function affirmBinding(ctx: AppContext, userId: number, input: { bindId: string; smsCode: string }) {
  const provider = requireProvider(ctx);
  const r = await pendingRequest(ctx, userId, input.bindId);
  const mobile = ctx.secrets.open(r.mobile_sealed);
  await consumeSmsCode(ctx, mobile, CARD_SMS_TYPE, input.smsCode);
  const cardNo = ctx.secrets.open(r.card_sealed);
  const account = await ctx.db.kysely.selectFrom('payout_accounts').select(['state', 'merchant_no']).where('user_id', '=', userId).executeTakeFirst();
  let bindId: string | null = null;
  if (r.purpose !== 'mobile' && account?.state === 'active' && account.merchant_no) {
    try {
      ({ bindId } = await provider.bindCard({ merchantNo: account.merchant_no, cardNo, bankCode: r.bank_code }));
    } catch {
      throw unavailable();
    }
  }
  const now = ctx.now();
  let replaced: { card_sealed: string; bank_code: string; provider_bind_id: string | null } | undefined;
  try {
    await inTx(ctx, async (trx) => {
      await lockKey(ctx, trx, `payout:${userId}`);
      const done = await trx.updateTable('payout_card_requests').set({ status: 'done', done_at: now }).where('id', '=', r.id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw new ApiError(Status.PAYOUT_STATE, 'cardBindNotFound');
      const current = await activeCard(trx, userId);
      if (r.purpose === 'mobile') {
        if (!current || Number(current.id) !== Number(r.card_id)) throw new ApiError(Status.PAYOUT_STATE, 'cardBindNotFound');
        await trx.updateTable('payout_cards').set({ mobile_sealed: r.mobile_sealed, mobile_masked: r.mobile_masked }).where('id', '=', Number(current.id)).where('status', '=', 'active').execute();
        return;
      }
      if (r.purpose === 'bind' && current) throw new ApiError(Status.PAYOUT_STATE, 'cardAlreadyBound');
      if (r.purpose === 'replace') {
        if (!current) throw new ApiError(Status.PAYOUT_STATE, 'cardNone');
        if ((await withdrawalsInFlight(trx, userId)) > 0) throw new ApiError(Status.PAYOUT_STATE, 'cardBusyWithdrawal');
        await trx.updateTable('payout_cards').set({ status: 'replaced', ended_at: now }).where('id', '=', Number(current.id)).where('status', '=', 'active').execute();
        replaced = current;
      }
      await trx
        .insertInto('payout_cards')
        .values({
          user_id: userId, status: 'active', card_sealed: r.card_sealed, card_digest: r.card_digest, bank_code: r.bank_code, bank_name: r.bank_name,
          card_masked: r.card_masked, last4: r.last4, mobile_sealed: r.mobile_sealed, mobile_masked: r.mobile_masked, provider_bind_id: bindId, bound_at: now, ended_at: null,
        })
        .execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      const mine = await activeCard(ctx.db.kysely, userId);
      throw mine ? new ApiError(Status.PAYOUT_STATE, 'cardAlreadyBound') : new ApiError(Status.CARD_REFUSED, 'cardInUse');
    }
    throw err;
  }
  if (replaced && account?.merchant_no) {
    const old = replaced;
    await provider.unbindCard({ merchantNo: account.merchant_no, cardNo: ctx.secrets.open(old.card_sealed), bankCode: old.bank_code, bindId: old.provider_bind_id }).catch(() => undefined);
  }
  const card = await getBoundCard(ctx, userId);
  return { card: card!, message: r.purpose === 'bind' ? ('cardBound' as const) : r.purpose === 'replace' ? ('cardReplaced' as const) : ('cardMobileChanged' as const) };
}

/**
 * unbindAccountBankCard {smsCode}: a security code sent to the account's own phone; refused while a
 * withdrawal is requested or processing (checked under the same per-user lock the withdrawal takes).
 */
export async function unbindCard(ctx: AppContext, userId: number, input: { smsCode: string }) {
  const provider = requireProvider(ctx);
  const card = await activeCard(ctx.db.kysely, userId);
  if (!card) throw new ApiError(Status.PAYOUT_STATE, 'cardNone');
  if ((await withdrawalsInFlight(ctx.db.kysely, userId)) > 0) throw new ApiError(Status.PAYOUT_STATE, 'cardBusyWithdrawal');
  const user = await ctx.db.kysely.selectFrom('users').select('mobile').where('id', '=', userId).executeTakeFirstOrThrow();
  await consumeSmsCode(ctx, user.mobile, SmsType.SECURITY, input.smsCode);
  const now = ctx.now();
  await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `payout:${userId}`);
    if ((await withdrawalsInFlight(trx, userId)) > 0) throw new ApiError(Status.PAYOUT_STATE, 'cardBusyWithdrawal');
    const res = await trx.updateTable('payout_cards').set({ status: 'unbound', ended_at: now }).where('id', '=', Number(card.id)).where('status', '=', 'active').executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.PAYOUT_STATE, 'cardNone');
  });
  const account = await ctx.db.kysely.selectFrom('payout_accounts').select('merchant_no').where('user_id', '=', userId).executeTakeFirst();
  if (account?.merchant_no) {
    await provider.unbindCard({ merchantNo: account.merchant_no, cardNo: ctx.secrets.open(card.card_sealed), bankCode: card.bank_code, bindId: card.provider_bind_id }).catch(() => undefined);
  }
}
