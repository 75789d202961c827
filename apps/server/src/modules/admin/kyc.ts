import { Status } from '@cfx/contract/envelope.ts';
import type { AdminKycRow, Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import { lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import type { AuditEntry } from './audit.ts';
import { userMatch } from './users.ts';

/**
 * Real-name verifications for reviewers (docs/admin.md "KYC"): the masked name and ID number only
 * (the sealed values are never opened here), and revocation with a reason. Revoking moves a masked
 * copy to kyc_revocations, deletes the realname row and clears users.is_realname in one
 * transaction: the user cannot trade (require-trader.ts) until they verify again, which the
 * real-name flow then allows (it refuses only while a realname row exists).
 */
export async function listKyc(ctx: AppContext, input: { q: string; status: 'verified' | 'revoked'; pageNum: number; pageSize: number }): Promise<Page<AdminKycRow>> {
  const k = ctx.db.kysely;
  const paging = { pageNum: input.pageNum, pageSize: input.pageSize };
  if (input.status === 'revoked') {
    let base = k.selectFrom('kyc_revocations as r').innerJoin('users as u', 'u.id', 'r.user_id').innerJoin('staff as s', 's.id', 'r.staff_id');
    if (input.q) base = base.where('r.user_id', 'in', userMatch(k, input.q));
    const total = Number((await base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await base
      .select(['r.user_id', 'u.account_id', 'u.nickname', 'r.name_masked', 'r.id_masked', 'r.provider', 'r.verified_at', 'r.revoked_at', 'r.reason', 's.username'])
      .orderBy('r.id', 'desc')
      .limit(input.pageSize)
      .offset((input.pageNum - 1) * input.pageSize)
      .execute();
    return {
      list: rows.map((r) => ({
        userId: Number(r.user_id), accountId: r.account_id, nickname: r.nickname, nameMasked: r.name_masked, idMasked: r.id_masked, provider: r.provider,
        verifiedAt: Number(r.verified_at), revokedAt: Number(r.revoked_at), reason: r.reason, revokedBy: r.username,
      })),
      total,
      ...paging,
    };
  }
  let base = k.selectFrom('realname as r').innerJoin('users as u', 'u.id', 'r.user_id');
  if (input.q) base = base.where('r.user_id', 'in', userMatch(k, input.q));
  const total = Number((await base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .select(['r.user_id', 'u.account_id', 'u.nickname', 'r.name_masked', 'r.id_masked', 'r.provider', 'r.verified_at'])
    .orderBy('r.verified_at', 'desc')
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize)
    .execute();
  return {
    list: rows.map((r) => ({ userId: Number(r.user_id), accountId: r.account_id, nickname: r.nickname, nameMasked: r.name_masked, idMasked: r.id_masked, provider: r.provider, verifiedAt: Number(r.verified_at) })),
    total,
    ...paging,
  };
}

export async function revokeKyc(ctx: AppContext, trx: Q, staffId: number, userId: number, reason: string, now: number): Promise<AuditEntry> {
  await lockKey(ctx, trx, `kyc:${userId}`);
  const rn = await trx.selectFrom('realname').select(['name_masked', 'id_masked', 'provider', 'verified_at']).where('user_id', '=', userId).executeTakeFirst();
  if (!rn) throw new ApiError(Status.STAFF_STATE, 'kycNotVerified');
  await trx
    .insertInto('kyc_revocations')
    .values({ user_id: userId, name_masked: rn.name_masked, id_masked: rn.id_masked, provider: rn.provider, verified_at: Number(rn.verified_at), reason, staff_id: staffId, revoked_at: now })
    .execute();
  await trx.deleteFrom('realname').where('user_id', '=', userId).execute();
  await trx.updateTable('users').set({ is_realname: 0 }).where('id', '=', userId).execute();
  return {
    action: 'kyc.revoke',
    targetType: 'user',
    targetId: userId,
    summary: { before: { verified: true, provider: rn.provider, verifiedAt: Number(rn.verified_at) }, after: { verified: false }, reason },
  };
}
