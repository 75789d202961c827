import { Status } from '@cfx/contract/envelope.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { hashPassword, sha256, verifyPassword } from '../../util/crypto.ts';
import type { ClientMeta } from './client-info.ts';
import { checkSmsCode, decodePassword } from './input.ts';
import { releaseLoginTry, reserveLoginTry } from './login-user.ts';
import { findUserById } from './repo.ts';
import { recordSecurityEvent } from './security-log.ts';
import { revokeOtherSessions } from './sessions.ts';
import { consumeSmsCode } from './sms-codes.ts';

function decodeLoosely(b64: string): string {
  try {
    return Buffer.from(b64, 'base64').toString('utf8');
  } catch {
    return '';
  }
}

/**
 * Change the password while logged in (security/changepwd). The new password follows the reset
 * rule (1001 "please enter 6-20 characters of digits, letters and symbols"). An account with a
 * password proves the old one (base64 like every password); the try is reserved in the login
 * failure counter of the account's phone BEFORE scrypt runs, exactly like a login, so a wrong old
 * password counts toward the lockout (5 per phone / 30 per IP in 15 minutes, 1006 after) and
 * concurrent guesses cannot exceed it. An account without a password (SMS only) proves a fresh
 * security code (type 4, /api/user/v1/mobile/smscode) instead. On success every OTHER session of
 * the user is revoked in the same transaction; the caller's session stays.
 */
export async function changePassword(
  ctx: AppContext,
  userId: number,
  token: string,
  input: { oldPwd?: string | null; newPwd: string; smsCode?: string | null },
  meta: ClientMeta,
): Promise<void> {
  const user = await findUserById(ctx, userId);
  if (!user) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  const password = decodePassword(input.newPwd);
  const hadHash = user.password_hash;
  if (hadHash) {
    if (!input.oldPwd) throw new ApiError(Status.INVALID, 'oldPasswordEmpty');
    const old = decodeLoosely(input.oldPwd);
    if (old === password) throw new ApiError(Status.INVALID, 'passwordSame');
    const tryId = await reserveLoginTry(ctx, user.mobile, meta.ip);
    if (!(await verifyPassword(old, hadHash))) throw new ApiError(Status.BAD_CREDENTIALS, 'badOldPassword');
    await releaseLoginTry(ctx, tryId);
  } else {
    await consumeSmsCode(ctx, user.mobile, SmsType.SECURITY, checkSmsCode(input.smsCode));
  }
  const newHash = await hashPassword(password);
  const now = ctx.now();
  await inTx(ctx, async (trx) => {
    // Conditional on the hash that was checked: of two concurrent changes only the first applies.
    let u = trx.updateTable('users').set({ password_hash: newHash }).where('id', '=', userId);
    u = hadHash ? u.where('password_hash', '=', hadHash) : u.where('password_hash', 'is', null);
    const res = await u.executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.BAD_CREDENTIALS, 'badOldPassword');
    const revoked = await revokeOtherSessions(trx, userId, sha256(token), now);
    await recordSecurityEvent(trx, { userId, kind: 'password_changed', meta, detail: { via: hadHash ? 'password' : 'sms', sessionsRevoked: revoked }, at: now });
  });
}
