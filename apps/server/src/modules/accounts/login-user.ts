import { Status } from '@cfx/contract/envelope.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { verifyPassword } from '../../util/crypto.ts';
import { checkMobile, checkSmsCode } from './input.ts';
import { findUserByMobile } from './repo.ts';
import { createSession } from './sessions.ts';
import { consumeSmsCode } from './sms-codes.ts';

/** Password failures within the window lock the phone (and, with a higher limit, the IP). */
async function assertNotLocked(ctx: AppContext, mobile: string, ip: string) {
  const { loginWindowMs, loginFailuresPerMobile, loginFailuresPerIp } = ctx.config.limits;
  const since = ctx.now() - loginWindowMs;
  const count = (col: 'mobile' | 'ip', v: string) =>
    ctx.db.kysely.selectFrom('login_failures').select((e) => e.fn.countAll<number>().as('n')).where(col, '=', v).where('created_at', '>', since).executeTakeFirstOrThrow();
  const [byMobile, byIp] = await Promise.all([count('mobile', mobile), count('ip', ip)]);
  if (Number(byMobile.n) >= loginFailuresPerMobile || Number(byIp.n) >= loginFailuresPerIp) {
    throw new ApiError(Status.RATE_LIMITED, 'loginLocked', { m: Math.ceil(loginWindowMs / 60_000) });
  }
}

export async function loginUser(ctx: AppContext, input: { mobile: string; pwd?: string | null; loginType: number; smsCode?: string | null }, ip: string) {
  const mobile = checkMobile(input.mobile);
  if (input.loginType === 2) {
    const code = checkSmsCode(input.smsCode);
    const user = await findUserByMobile(ctx, mobile);
    if (!user) throw new ApiError(Status.NOT_REGISTERED, 'notRegistered');
    await consumeSmsCode(ctx, mobile, SmsType.LOGIN, code);
    return { token: await createSession(ctx, Number(user.id)) };
  }
  await assertNotLocked(ctx, mobile, ip);
  const user = await findUserByMobile(ctx, mobile);
  let password = '';
  try {
    password = input.pwd ? Buffer.from(input.pwd, 'base64').toString('utf8') : '';
  } catch {
    password = '';
  }
  if (!user || !password || !(await verifyPassword(password, user.password_hash))) {
    await ctx.db.kysely.insertInto('login_failures').values({ mobile, ip, created_at: ctx.now() }).execute();
    throw new ApiError(Status.BAD_CREDENTIALS, 'badCredentials');
  }
  return { token: await createSession(ctx, Number(user.id)) };
}
