import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import { REASON_MAX, REASON_MIN } from '@cfx/contract/admin-rules.ts';
import type { AdminUserDetail, AdminUserRow, Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import { changed, lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { maskMobile } from '../../util/crypto.ts';
import { Account, balanceOf } from '../ledger/index.ts';
import type { AuditEntry } from './audit.ts';
import { staffUserIds } from './staff-accounts.ts';

/**
 * User lookup, phone reveal and freezes for the console (docs/admin.md "Users"). Lists show the
 * phone masked; the full number only through `revealMobile`, which the route audits. A frozen
 * user (users.frozen_at) has no working session (the session check joins it, and freezing revokes
 * them all), cannot log in (1034) and cannot trade (kyc/require-trader.ts, 1034). The users rows
 * staff accounts act as are never listed.
 */
export function checkReason(raw: string | null | undefined): string {
  const r = (raw ?? '').trim();
  const n = [...r].length;
  if (n < REASON_MIN || n > REASON_MAX) throw new ApiError(Status.INVALID, 'adminBadReason');
  return r;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The users matching a console search: a phone number, an account id, a user id, or part of a nickname. */
export function userMatch(q: Q, text: string) {
  const t = text.trim();
  if (/^1\d{10}$/.test(t)) return q.selectFrom('users').select('id').where('mobile', '=', t);
  if (/^\d{1,15}$/.test(t)) return q.selectFrom('users').select('id').where((e) => e.or([e('account_id', '=', t), e('id', '=', Number(t))]));
  return q.selectFrom('users').select('id').where(sql<boolean>`nickname like ${`%${likeEscape(t)}%`} escape '\\'`);
}

type UserRow = {
  id: number;
  account_id: string;
  nickname: string;
  mobile: string;
  is_realname: number;
  is_creator: number;
  wallet_address: string | null;
  frozen_at: number | null;
  cancelled_at: number | null;
  created_at: number;
};
const USER_COLUMNS = ['id', 'account_id', 'nickname', 'mobile', 'is_realname', 'is_creator', 'wallet_address', 'frozen_at', 'cancelled_at', 'created_at'] as const;

function userView(r: UserRow): AdminUserRow {
  return {
    id: Number(r.id),
    accountId: r.account_id,
    nickname: r.nickname,
    mobileMasked: maskMobile(r.mobile),
    isRealname: Number(r.is_realname) === 1,
    isCreator: Number(r.is_creator) === 1,
    walletLinked: r.wallet_address !== null,
    frozenAt: r.frozen_at === null ? null : Number(r.frozen_at),
    cancelledAt: r.cancelled_at === null ? null : Number(r.cancelled_at),
    createdAt: Number(r.created_at),
  };
}

export async function searchUsers(ctx: AppContext, input: { q: string; frozen?: boolean | null; pageNum: number; pageSize: number }): Promise<Page<AdminUserRow>> {
  const k = ctx.db.kysely;
  let base = k.selectFrom('users').where('id', 'not in', staffUserIds(k));
  if (input.q) base = base.where('id', 'in', userMatch(k, input.q));
  if (input.frozen) base = base.where('frozen_at', 'is not', null);
  const total = Number((await base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .select([...USER_COLUMNS])
    .orderBy('id', 'desc')
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize)
    .execute();
  return { list: rows.map((r) => userView(r as UserRow)), total, pageNum: input.pageNum, pageSize: input.pageSize };
}

async function userRow(q: Q, userId: number): Promise<UserRow> {
  const r = await q.selectFrom('users').select([...USER_COLUMNS]).where('id', '=', userId).where('id', 'not in', staffUserIds(q)).executeTakeFirst();
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'userNotFound', {}, 404);
  return r as UserRow;
}

export async function userDetail(ctx: AppContext, userId: number): Promise<AdminUserDetail> {
  const k = ctx.db.kysely;
  const u = await userRow(k, userId);
  const now = ctx.now();
  const [orders, sessions, rn, freezes, balance] = await Promise.all([
    k.selectFrom('orders').select((e) => e.fn.countAll<number>().as('n')).where((e) => e.or([e('buyer_user_id', '=', userId), e('seller_user_id', '=', userId)])).executeTakeFirstOrThrow(),
    k.selectFrom('sessions').select((e) => e.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirstOrThrow(),
    k.selectFrom('realname').select(['name_masked', 'id_masked', 'verified_at']).where('user_id', '=', userId).executeTakeFirst(),
    k
      .selectFrom('user_freezes as f')
      .innerJoin('staff as a', 'a.id', 'f.frozen_by')
      .leftJoin('staff as b', 'b.id', 'f.unfrozen_by')
      .select(['f.frozen_at', 'f.reason', 'a.username as frozenBy', 'f.unfrozen_at', 'f.unfreeze_reason', 'b.username as unfrozenBy'])
      .where('f.user_id', '=', userId)
      .orderBy('f.id', 'desc')
      .limit(20)
      .execute(),
    balanceOf(k, Account.user(userId)),
  ]);
  return {
    ...userView(u),
    balanceFen: balance,
    orders: Number(orders.n),
    liveSessions: Number(sessions.n),
    realname: rn ? { nameMasked: rn.name_masked, idMasked: rn.id_masked, verifiedAt: Number(rn.verified_at) } : null,
    freezes: freezes.map((f) => ({
      frozenAt: Number(f.frozen_at),
      reason: f.reason,
      frozenBy: f.frozenBy,
      unfrozenAt: f.unfrozen_at === null ? null : Number(f.unfrozen_at),
      unfreezeReason: f.unfreeze_reason,
      unfrozenBy: f.unfrozenBy ?? null,
    })),
  };
}

/** The full phone number (the route writes the audit row in this transaction). */
export async function revealMobile(trx: Q, userId: number): Promise<{ mobile: string; entry: AuditEntry }> {
  const u = await userRow(trx, userId);
  return { mobile: u.mobile, entry: { action: 'user.reveal_mobile', targetType: 'user', targetId: userId, summary: { field: 'mobile' } } };
}

/** Freezes a user: the flag, the history row, and every live session revoked — one transaction. */
export async function freezeUser(ctx: AppContext, trx: Q, staffId: number, userId: number, reason: string, now: number): Promise<AuditEntry> {
  await lockKey(ctx, trx, `freeze:${userId}`);
  await userRow(trx, userId);
  const r = await trx.updateTable('users').set({ frozen_at: now }).where('id', '=', userId).where('frozen_at', 'is', null).executeTakeFirst();
  if (changed(r) !== 1) throw new ApiError(Status.STAFF_STATE, 'userAlreadyFrozen');
  await trx.insertInto('user_freezes').values({ user_id: userId, reason, frozen_by: staffId, frozen_at: now, unfrozen_by: null, unfrozen_at: null, unfreeze_reason: null }).execute();
  const revoked = await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return { action: 'user.freeze', targetType: 'user', targetId: userId, summary: { before: { frozen: false }, after: { frozen: true }, reason, sessionsRevoked: changed(revoked) } };
}

export async function unfreezeUser(ctx: AppContext, trx: Q, staffId: number, userId: number, reason: string, now: number): Promise<AuditEntry> {
  await lockKey(ctx, trx, `freeze:${userId}`);
  await userRow(trx, userId);
  const r = await trx.updateTable('users').set({ frozen_at: null }).where('id', '=', userId).where('frozen_at', 'is not', null).executeTakeFirst();
  if (changed(r) !== 1) throw new ApiError(Status.STAFF_STATE, 'userNotFrozen');
  await trx
    .updateTable('user_freezes')
    .set({ unfrozen_by: staffId, unfrozen_at: now, unfreeze_reason: reason })
    .where('user_id', '=', userId)
    .where('unfrozen_at', 'is', null)
    .execute();
  return { action: 'user.unfreeze', targetType: 'user', targetId: userId, summary: { before: { frozen: true }, after: { frozen: false }, reason } };
}
