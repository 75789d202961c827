import { Status } from '@cfx/contract/envelope.ts';
import { permissionsOf, STAFF_SESSION, TOTP, validStaffPassword, type StaffRole } from '@cfx/contract/admin-rules.ts';
import type { LoginAnswer, StaffMe } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import type { StaffSessionStage } from '../../db/schema.ts';
import { changed, inTx, lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { hashPassword, randomToken, sha256, verifyPassword } from '../../util/crypto.ts';
import { maskIp, type ClientMeta } from '../accounts/index.ts';
import { rehashIfOld } from '../accounts/index.ts';
import type { AuditWrite } from './audit.ts';
import { normaliseUsername, parseRoles } from './staff-accounts.ts';
import { base32Decode, matchTotp, newTotpSecret, otpauthUri } from './totp.ts';

/**
 * Staff sign-in (docs/admin.md "Sign-in"): user name + password, then a TOTP code — mandatory for
 * every account: the first login enrols (a new secret, shown once as an otpauth:// URI) before
 * anything else; after a one-time password a new password is set before the session is full.
 *
 *   password ok ─▶ pending session (5 min): stage `totp`, or `enrol` with a fresh secret
 *   code ok     ─▶ stage `password` (one-time password in use) or `full` (8 h, 30 min idle) — a new token each step
 *
 * Lockout: every password or code try is reserved in staff_login_failures BEFORE it is checked
 * (under per-name and per-IP locks), like the user login; 5 per name or 30 per IP in 15 minutes
 * lock further tries; a right answer gives its reservation back. A code is accepted once: the
 * staff row keeps the last accepted time step and a conditional UPDATE refuses the same or an
 * earlier step (replay), also for two requests racing with one code.
 */
export const STAFF_LOCKOUT = { windowMs: 15 * 60_000, perUsername: 5, perIp: 30 } as const;

/** A signed-in staff member, as every console route sees them. */
export interface StaffPrincipal {
  id: number;
  username: string;
  roles: StaffRole[];
  /** The users row the staff member acts as in domain tables (staff-accounts.ts). */
  userId: number;
  stage: StaffSessionStage;
  tokenHash: string;
  sessionExpiresAt: number;
  lastLoginAt: number | null;
}

export async function reserveStaffTry(ctx: AppContext, username: string, ip: string): Promise<number> {
  const now = ctx.now();
  const since = now - STAFF_LOCKOUT.windowMs;
  return inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `staff-login:u:${username}`);
    await lockKey(ctx, trx, `staff-login:ip:${ip}`);
    const count = async (col: 'username' | 'ip', v: string) =>
      Number((await trx.selectFrom('staff_login_failures').select((e) => e.fn.countAll<number>().as('n')).where(col, '=', v).where('created_at', '>', since).executeTakeFirstOrThrow()).n);
    if ((await count('username', username)) >= STAFF_LOCKOUT.perUsername || (await count('ip', ip)) >= STAFF_LOCKOUT.perIp) {
      throw new ApiError(Status.STAFF_TOTP, 'loginLocked', { m: Math.ceil(STAFF_LOCKOUT.windowMs / 60_000) });
    }
    const row = await trx.insertInto('staff_login_failures').values({ username, ip, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  });
}

async function releaseStaffTry(ctx: AppContext, id: number) {
  await ctx.db.kysely.deleteFrom('staff_login_failures').where('id', '=', id).execute();
}

async function newSession(trx: Q, staffId: number, stage: StaffSessionStage, meta: ClientMeta, now: number): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken(32);
  const expiresAt = now + (stage === 'full' ? STAFF_SESSION.maxMs : STAFF_SESSION.pendingMs);
  await trx
    .insertInto('staff_sessions')
    .values({ token_hash: sha256(token), staff_id: staffId, stage, created_at: now, expires_at: expiresAt, last_seen_at: now, revoked_at: null, ip_masked: maskIp(meta.ip), user_agent: meta.userAgent.slice(0, 300) })
    .execute();
  return { token, expiresAt };
}

export function meOf(p: Pick<StaffPrincipal, 'id' | 'username' | 'roles' | 'sessionExpiresAt' | 'lastLoginAt'>): StaffMe {
  return { id: p.id, username: p.username, roles: p.roles, permissions: permissionsOf(p.roles), lastLoginAt: p.lastLoginAt, sessionExpiresAt: p.sessionExpiresAt };
}

/** Step 1: user name and password. A pending session for the code step; at the first login a new TOTP secret. */
export async function staffLogin(ctx: AppContext, input: { username: string; password: string }, meta: ClientMeta, audit: AuditWrite): Promise<LoginAnswer> {
  const username = normaliseUsername(input.username).slice(0, 64);
  const tryId = await reserveStaffTry(ctx, username, meta.ip);
  const row = username
    ? await ctx.db.kysely.selectFrom('staff').select(['id', 'username', 'password_hash', 'totp_enabled', 'disabled_at']).where('username', '=', username).executeTakeFirst()
    : undefined;
  // Unknown name, disabled account or wrong password: the same scrypt cost and the same answer.
  const good = await verifyPassword(input.password, row && input.password ? row.password_hash : null);
  if (!row || !good || row.disabled_at !== null) throw new ApiError(Status.BAD_CREDENTIALS, 'staffBadCredentials');
  await releaseStaffTry(ctx, tryId);
  await rehashIfOld(ctx, 'staff', Number(row.id), row.password_hash, input.password);
  const staffId = Number(row.id);
  const now = ctx.now();
  const enrol = Number(row.totp_enabled) !== 1;
  const secret = enrol ? newTotpSecret() : null;
  const { token } = await inTx(ctx, async (trx) => {
    if (secret) await trx.updateTable('staff').set({ totp_secret: ctx.secrets.seal(secret), updated_at: now }).where('id', '=', staffId).where('totp_enabled', '=', 0).execute();
    await audit(trx, { action: 'auth.password', targetType: 'staff', targetId: staffId, summary: { next: enrol ? 'enrol' : 'totp' } }, staffId);
    return newSession(trx, staffId, enrol ? 'enrol' : 'totp', meta, now);
  });
  return { stage: enrol ? 'enrol' : 'totp', token, ...(secret ? { enrol: { secret, uri: otpauthUri(secret, row.username) } } : {}) };
}

/** Step 2: the TOTP code (enrolment completes with the first good code). */
export async function staffTotp(ctx: AppContext, p: StaffPrincipal, code: string, meta: ClientMeta, audit: AuditWrite): Promise<LoginAnswer> {
  const tryId = await reserveStaffTry(ctx, p.username, meta.ip);
  const row = await ctx.db.kysely.selectFrom('staff').select(['totp_secret', 'totp_last_step', 'must_change_password']).where('id', '=', p.id).executeTakeFirstOrThrow();
  if (!row.totp_secret) throw new ApiError(Status.STAFF_AUTH, 'staffSessionLost');
  const now = ctx.now();
  const step = matchTotp(base32Decode(ctx.secrets.open(row.totp_secret)), code.trim(), now, TOTP.window);
  if (step === null) throw new ApiError(Status.STAFF_TOTP, 'staffBadTotp');
  const enrolling = p.stage === 'enrol';
  const next: StaffSessionStage = Number(row.must_change_password) === 1 ? 'password' : 'full';
  const out = await inTx(ctx, async (trx) => {
    const used = await trx
      .updateTable('staff')
      .set({ totp_last_step: step, totp_enabled: 1, updated_at: now, ...(next === 'full' ? { last_login_at: now } : {}) })
      .where('id', '=', p.id)
      .where('totp_last_step', '<', step)
      .executeTakeFirst();
    if (changed(used) !== 1) throw new ApiError(Status.STAFF_TOTP, 'staffTotpReplay');
    const ended = await trx.updateTable('staff_sessions').set({ revoked_at: now }).where('token_hash', '=', p.tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
    if (changed(ended) !== 1) throw new ApiError(Status.STAFF_AUTH, 'staffSessionLost');
    await audit(trx, { action: enrolling ? 'auth.totp_enrol' : 'auth.totp', targetType: 'staff', targetId: p.id, summary: { next } });
    return newSession(trx, p.id, next, meta, now);
  });
  await releaseStaffTry(ctx, tryId);
  if (next === 'password') return { stage: 'password', token: out.token };
  return { stage: 'done', token: out.token, me: meOf({ ...p, sessionExpiresAt: out.expiresAt, lastLoginAt: now }) };
}

/**
 * Step 3 after a one-time password (stage `password`), or a change while signed in (stage `full`,
 * the current password required). The new password follows the staff rule and differs from the
 * old one; a change while signed in ends the staff member's other sessions.
 */
export async function staffChangePassword(ctx: AppContext, p: StaffPrincipal, input: { password: string; current?: string | null }, meta: ClientMeta, audit: AuditWrite): Promise<LoginAnswer> {
  const row = await ctx.db.kysely.selectFrom('staff').select(['password_hash']).where('id', '=', p.id).executeTakeFirstOrThrow();
  if (p.stage === 'full') {
    const tryId = await reserveStaffTry(ctx, p.username, meta.ip);
    if (!input.current || !(await verifyPassword(input.current, row.password_hash))) throw new ApiError(Status.BAD_CREDENTIALS, 'staffWrongPassword');
    await releaseStaffTry(ctx, tryId);
  }
  if (!validStaffPassword(input.password)) throw new ApiError(Status.INVALID, 'staffBadPassword');
  if (await verifyPassword(input.password, row.password_hash)) throw new ApiError(Status.INVALID, 'staffSamePassword');
  const hash = await hashPassword(input.password);
  const now = ctx.now();
  const out = await inTx(ctx, async (trx) => {
    await trx.updateTable('staff').set({ password_hash: hash, must_change_password: 0, updated_at: now, ...(p.stage === 'password' ? { last_login_at: now } : {}) }).where('id', '=', p.id).execute();
    await audit(trx, { action: 'auth.password_change', targetType: 'staff', targetId: p.id, summary: { forced: p.stage === 'password' } });
    if (p.stage === 'password') {
      const ended = await trx.updateTable('staff_sessions').set({ revoked_at: now }).where('token_hash', '=', p.tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
      if (changed(ended) !== 1) throw new ApiError(Status.STAFF_AUTH, 'staffSessionLost');
      return newSession(trx, p.id, 'full', meta, now);
    }
    await trx.updateTable('staff_sessions').set({ revoked_at: now }).where('staff_id', '=', p.id).where('token_hash', '<>', p.tokenHash).where('revoked_at', 'is', null).execute();
    return null;
  });
  if (!out) return { stage: 'done', token: '', me: meOf(p) };
  return { stage: 'done', token: out.token, me: meOf({ ...p, sessionExpiresAt: out.expiresAt, lastLoginAt: now }) };
}

export async function staffLogout(ctx: AppContext, p: StaffPrincipal, audit: AuditWrite): Promise<void> {
  const now = ctx.now();
  await inTx(ctx, async (trx) => {
    await trx.updateTable('staff_sessions').set({ revoked_at: now }).where('token_hash', '=', p.tokenHash).where('revoked_at', 'is', null).execute();
    await audit(trx, { action: 'auth.logout', targetType: 'staff', targetId: p.id });
  });
}

/** last_seen_at is written at most this often (the idle limit is 30 minutes). */
const TOUCH_EVERY_MS = 15_000;

/**
 * The staff member of a token: an unrevoked, unexpired session of an enabled account whose stage
 * is one of `stages`; a full session also not idle for 30 minutes. Everything else is 1070.
 */
export async function findStaff(ctx: AppContext, token: string | undefined, stages: readonly StaffSessionStage[]): Promise<StaffPrincipal> {
  const lost = () => new ApiError(Status.STAFF_AUTH, 'staffSessionLost');
  if (!token || token.length > 200) throw lost();
  const hash = sha256(token);
  const now = ctx.now();
  const row = await ctx.db.kysely
    .selectFrom('staff_sessions as s')
    .innerJoin('staff', 'staff.id', 's.staff_id')
    .select(['staff.id', 'staff.username', 'staff.roles', 'staff.user_id', 'staff.disabled_at', 'staff.last_login_at', 's.stage', 's.expires_at', 's.last_seen_at'])
    .where('s.token_hash', '=', hash)
    .where('s.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.disabled_at !== null || Number(row.expires_at) <= now || !stages.includes(row.stage)) throw lost();
  const full = row.stage === 'full';
  if (full && now - Number(row.last_seen_at) > STAFF_SESSION.idleMs) throw lost();
  if (full && now - Number(row.last_seen_at) > TOUCH_EVERY_MS) {
    await ctx.db.kysely.updateTable('staff_sessions').set({ last_seen_at: now }).where('token_hash', '=', hash).where('revoked_at', 'is', null).execute();
  }
  return {
    id: Number(row.id),
    username: row.username,
    roles: parseRoles(row.roles),
    userId: Number(row.user_id),
    stage: row.stage,
    tokenHash: hash,
    sessionExpiresAt: Number(row.expires_at),
    lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at),
  };
}
