import { Status } from '@cfx/contract/envelope.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { verifyPassword } from '../../util/crypto.ts';
import { rehashIfOld } from './rehash-password.ts';
import { checkMobile, checkSmsCode } from './input.ts';
import { findUserByMobile } from './repo.ts';
import type { ClientMeta } from './client-info.ts';
import { createSession } from './sessions.ts';
import { consumeSmsCode } from './sms-codes.ts';
import { inTx, lockKey } from '../../db/tx.ts';

/**
 * Password failures within the window lock the phone (and, with a higher limit, the IP). A try is
 * reserved BEFORE the password is checked: under per-phone and per-IP locks the failures are
 * counted and, below the limits, a failure row is written at once; a correct password deletes it
 * again. So 100 concurrent guesses cost at most LOGIN_FAILURES_PER_MOBILE scrypt evaluations.
 * Returns the reserved row's id.
 */
export async function reserveLoginTry(ctx: AppContext, mobile: string, ip: string): Promise<number> {
  const { loginWindowMs, loginFailuresPerMobile, loginFailuresPerIp } = ctx.config.limits;
  const now = ctx.now();
  const since = now - loginWindowMs;
  return inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `login:m:${mobile}`);
    await lockKey(ctx, trx, `login:ip:${ip}`);
    const count = (col: 'mobile' | 'ip', v: string) =>
      trx.selectFrom('login_failures').select((e) => e.fn.countAll<number>().as('n')).where(col, '=', v).where('created_at', '>', since).executeTakeFirstOrThrow();
    const byMobile = await count('mobile', mobile);
    const byIp = await count('ip', ip);
    if (Number(byMobile.n) >= loginFailuresPerMobile || Number(byIp.n) >= loginFailuresPerIp) {
      throw new ApiError(Status.RATE_LIMITED, 'loginLocked', { m: Math.ceil(loginWindowMs / 60_000) });
    }
    const row = await trx.insertInto('login_failures').values({ mobile, ip, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  });
}

/** Gives a reserved try back (the password was right). */
export async function releaseLoginTry(ctx: AppContext, tryId: number): Promise<void> {
  await ctx.db.kysely.deleteFrom('login_failures').where('id', '=', tryId).execute();
}

export async function loginUser(ctx: AppContext, input: { mobile: string; pwd?: string | null; loginType: number; smsCode?: string | null }, meta: ClientMeta) {
  const ip = meta.ip;
  const mobile = checkMobile(input.mobile);
  if (input.loginType === 2) {
    const code = checkSmsCode(input.smsCode);
    // The code first: an unregistered phone answers exactly like a wrong code (no enumeration).
    await consumeSmsCode(ctx, mobile, SmsType.LOGIN, code);
    const user = await findUserByMobile(ctx, mobile);
    if (!user) throw new ApiError(Status.BAD_SMS_CODE, 'badSmsCode');
    // Frozen by staff (operations console): said only after the code proved the phone is the caller's.
    if (user.frozen_at !== null) throw new ApiError(Status.ACCOUNT_FROZEN, 'accountFrozen');
    return { token: await createSession(ctx, Number(user.id), meta) };
  }
  const tryId = await reserveLoginTry(ctx, mobile, ip);
  const user = await findUserByMobile(ctx, mobile);
  let password: string;
  try {
    password = input.pwd ? Buffer.from(input.pwd, 'base64').toString('utf8') : '';
  } catch {
    password = '';
  }
  // Unknown phone or empty password: the same scrypt cost and the same answer as a wrong password.
  const good = await verifyPassword(password, user && password ? user.password_hash : null);
  if (!user || !good) throw new ApiError(Status.BAD_CREDENTIALS, 'badCredentials');
  await releaseLoginTry(ctx, tryId);
  await rehashIfOld(ctx, 'users', Number(user.id), user.password_hash!, password);
  // Frozen by staff (operations console): said only after the right password.
  if (user.frozen_at !== null) throw new ApiError(Status.ACCOUNT_FROZEN, 'accountFrozen');
  return { token: await createSession(ctx, Number(user.id), meta) };
}
