import { Status } from '@cfx/contract/envelope.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { inTx, isUniqueViolation } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { maskMobile, randomToken, sha256 } from '../../util/crypto.ts';
import type { ClientMeta } from './client-info.ts';
import { checkMobile, checkSmsCode } from './input.ts';
import { findUserById } from './repo.ts';
import { recordSecurityEvent } from './security-log.ts';
import { revokeOtherSessions } from './sessions.ts';
import { consumeSmsCode, issueSmsCode } from './sms-codes.ts';

/** A ticket (step 1 passed) is valid this long. */
export const MOBILE_TICKET_TTL_MS = 10 * 60_000;
/** Codes one ticket may send to new numbers (each send also counts against the per-phone and per-IP SMS limits). */
export const MOBILE_TICKET_MAX_SENDS = 5;

const ticketInvalid = () => new ApiError(Status.BAD_SMS_CODE, 'mobileTicketInvalid');

async function userOrLost(ctx: AppContext, userId: number) {
  const user = await findUserById(ctx, userId);
  if (!user) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  return user;
}

/** The live ticket of this user for its current phone, or 1004. */
async function liveTicket(ctx: AppContext, userId: number, currentMobile: string, ticket: string) {
  const row = await ctx.db.kysely
    .selectFrom('mobile_change_tickets')
    .selectAll()
    .where('token_hash', '=', sha256(ticket))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.now())
    .executeTakeFirst();
  if (!row || row.old_mobile !== currentMobile) throw ticketInvalid();
  return row;
}

/**
 * Step 1 (mobile/verify): the security code (type 4) that /api/user/v1/mobile/smscode sent to the
 * CURRENT phone proves the user still holds it. Answers a ticket (random, stored hashed, 10 minutes,
 * single use, bound to the user and that phone); an earlier unused ticket of the user dies.
 */
export async function verifyCurrentMobile(ctx: AppContext, userId: number, input: { smsCode: string }) {
  const user = await userOrLost(ctx, userId);
  await consumeSmsCode(ctx, user.mobile, SmsType.SECURITY, checkSmsCode(input.smsCode));
  const ticket = randomToken(24);
  const now = ctx.now();
  const expiresAt = now + MOBILE_TICKET_TTL_MS;
  await inTx(ctx, async (trx) => {
    await trx.updateTable('mobile_change_tickets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('mobile_change_tickets')
      .values({ token_hash: sha256(ticket), user_id: userId, old_mobile: user.mobile, new_mobile: null, created_at: now, expires_at: expiresAt, used_at: null })
      .execute();
  });
  return { ticket, expiresAt };
}

/**
 * Step 2 (mobile/newsmscode): a type-5 code to the NEW phone, behind the slider captcha and the
 * same per-phone / per-IP limits as every SMS, at most MOBILE_TICKET_MAX_SENDS per ticket.
 *
 * Enumeration: the answer is "sent successfully" whether or not the new number is registered, and
 * the code is delivered either way — so the answer tells the caller nothing. Only in step 3, after
 * the caller proved they hold the new phone by its code, is a registered number refused (1003):
 * telling the holder of a phone that it has an account reveals nothing they could not learn by
 * logging in with it.
 */
export async function sendNewMobileCode(ctx: AppContext, userId: number, input: { ticket: string; mobile: string; NECaptchaValidate: string }, ip: string) {
  const user = await userOrLost(ctx, userId);
  const mobile = checkMobile(input.mobile);
  const t = await liveTicket(ctx, userId, user.mobile, input.ticket);
  if (mobile === user.mobile) throw new ApiError(Status.INVALID, 'mobileSame');
  if (!(await ctx.captcha.verify(input.NECaptchaValidate))) throw new ApiError(Status.BAD_CAPTCHA, 'badCaptcha');
  const reserved = await ctx.db.kysely
    .updateTable('mobile_change_tickets')
    .set((e) => ({ sends: e('sends', '+', 1), new_mobile: mobile }))
    .where('token_hash', '=', t.token_hash)
    .where('used_at', 'is', null)
    .where('sends', '<', MOBILE_TICKET_MAX_SENDS)
    .executeTakeFirst();
  if (Number(reserved.numUpdatedRows) !== 1) throw new ApiError(Status.RATE_LIMITED, 'mobileSendCap');
  await issueSmsCode(ctx, mobile, SmsType.NEW_MOBILE, ip);
}

/**
 * Step 3 (mobile/change): the ticket, the new number it sent its last code to, and that code.
 * One transaction uses the ticket, moves the account to the new number (conditional on the phone
 * the ticket proved), revokes every other session and records the security notice. The users
 * table's unique mobile decides a race with a registration or another change to the same number:
 * the loser answers 1003 "this phone number is already used by another account", nothing is changed.
 */
export async function changeMobile(
  ctx: AppContext,
  userId: number,
  token: string,
  input: { ticket: string; mobile: string; smsCode: string },
  meta: ClientMeta,
): Promise<{ mobile: string }> {
  const user = await userOrLost(ctx, userId);
  const mobile = checkMobile(input.mobile);
  const code = checkSmsCode(input.smsCode);
  const t = await liveTicket(ctx, userId, user.mobile, input.ticket);
  if (t.new_mobile !== mobile) throw ticketInvalid();
  await consumeSmsCode(ctx, mobile, SmsType.NEW_MOBILE, code);
  const now = ctx.now();
  try {
    await inTx(ctx, async (trx) => {
      const used = await trx
        .updateTable('mobile_change_tickets')
        .set({ used_at: now })
        .where('token_hash', '=', t.token_hash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw ticketInvalid();
      const moved = await trx.updateTable('users').set({ mobile }).where('id', '=', userId).where('mobile', '=', t.old_mobile).executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw ticketInvalid();
      const revoked = await revokeOtherSessions(trx, userId, sha256(token), now);
      await recordSecurityEvent(trx, {
        userId,
        kind: 'mobile_changed',
        meta,
        detail: { from: maskMobile(t.old_mobile), to: maskMobile(mobile), sessionsRevoked: revoked },
        at: now,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.ALREADY_REGISTERED, 'mobileTaken');
    throw err;
  }
  return { mobile: maskMobile(mobile) };
}
