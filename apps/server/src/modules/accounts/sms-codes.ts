import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { randomDigits, sha256 } from '../../util/crypto.ts';

const DAY_MS = 24 * 3600_000;
const codeHash = (mobile: string, type: string, code: string) => sha256(`${mobile}:${type}:${code}`);

/**
 * Issues a 6-digit code: one send per phone per resend interval, daily caps per phone and per IP.
 * Check and insert run in one transaction (with a per-phone advisory lock on PostgreSQL),
 * so two concurrent requests cannot both pass the limits.
 */
export async function issueSmsCode(ctx: AppContext, mobile: string, type: string, ip: string, opts: { deliver?: boolean } = {}): Promise<void> {
  const { limits } = ctx.config;
  const now = ctx.now();
  const code = randomDigits(6);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    if (ctx.db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${'sms:' + mobile}))`.execute(trx);
    const last = await trx.selectFrom('sms_codes').select('created_at').where('mobile', '=', mobile).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    if (last && now - Number(last.created_at) < limits.smsResendMs) {
      throw new ApiError(Status.RATE_LIMITED, 'smsTooSoon', { s: Math.ceil((limits.smsResendMs - (now - Number(last.created_at))) / 1000) });
    }
    const perMobile = await trx.selectFrom('sms_codes').select((e) => e.fn.countAll<number>().as('n')).where('mobile', '=', mobile).where('created_at', '>', now - DAY_MS).executeTakeFirstOrThrow();
    const perIp = await trx.selectFrom('sms_codes').select((e) => e.fn.countAll<number>().as('n')).where('ip', '=', ip).where('created_at', '>', now - DAY_MS).executeTakeFirstOrThrow();
    if (Number(perMobile.n) >= limits.smsDailyPerMobile || Number(perIp.n) >= limits.smsDailyPerIp) {
      throw new ApiError(Status.RATE_LIMITED, 'smsDailyCap');
    }
    // A new code replaces any earlier unused one of the same type.
    await trx.updateTable('sms_codes').set({ used_at: now }).where('mobile', '=', mobile).where('type', '=', type).where('used_at', 'is', null).execute();
    await trx
      .insertInto('sms_codes')
      .values({ mobile, type, code_hash: codeHash(mobile, type, code), ip, created_at: now, expires_at: now + limits.smsCodeTtlMs, wrong_tries: 0, used_at: null })
      .execute();
  });
  // Not delivered (a login/reset code for an unregistered phone): recorded for the limits only,
  // so the caller's answer and rate limiting look the same as for a registered phone.
  if (opts.deliver === false) return;
  try {
    await ctx.sms.send({ mobile, type, code });
  } catch (err) {
    // Not delivered: free the phone's resend slot again and report it.
    await ctx.db.kysely.deleteFrom('sms_codes').where('mobile', '=', mobile).where('created_at', '=', now).execute();
    throw new ApiError(Status.SERVER_ERROR, 'serverError', {}, 503);
  }
}

/** How many SMS codes this process compared (tests assert that tries beyond the limit compare none). */
export const smsCodeChecks = { count: 0 };

/**
 * Consumes the latest live code of this phone and type. A try is reserved before the code is
 * compared (wrong_tries + 1 while below the limit, one conditional UPDATE), so concurrent guesses
 * can never compare more than the allowed tries; a correct code gives its try back and is used.
 * After the allowed wrong tries the code is dead and a new one must be requested.
 */
export async function consumeSmsCode(ctx: AppContext, mobile: string, type: string, code: string): Promise<void> {
  const now = ctx.now();
  const max = ctx.config.limits.smsMaxWrongTries;
  const row = await ctx.db.kysely
    .selectFrom('sms_codes')
    .select(['id', 'code_hash', 'wrong_tries'])
    .where('mobile', '=', mobile)
    .where('type', '=', type)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw new ApiError(Status.BAD_SMS_CODE, 'badSmsCode');
  const reserved = await ctx.db.kysely
    .updateTable('sms_codes')
    .set((e) => ({ wrong_tries: e('wrong_tries', '+', 1) }))
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('wrong_tries', '<', max)
    .returning('wrong_tries')
    .executeTakeFirst();
  if (!reserved) throw new ApiError(Status.BAD_SMS_CODE, 'smsCodeLocked');
  smsCodeChecks.count++;
  if (row.code_hash !== codeHash(mobile, type, code)) {
    throw new ApiError(Status.BAD_SMS_CODE, Number(reserved.wrong_tries) >= max ? 'smsCodeLocked' : 'badSmsCode');
  }
  const res = await ctx.db.kysely
    .updateTable('sms_codes')
    .set((e) => ({ used_at: now, wrong_tries: e('wrong_tries', '-', 1) }))
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.BAD_SMS_CODE, 'badSmsCode');
}
