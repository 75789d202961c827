import type { InviteRecordsPage } from '@cfx/contract/invites.ts';
import type { AppContext } from '../../context.ts';
import { maskMobile } from '../../util/crypto.ts';
import { getInviteInfo } from '../accounts/index.ts';

/**
 * POST /api/user/v1/inviterecords — the users `userId` invited (users.invited_by), newest first,
 * with the totals. Each record carries only the masked phone, the nickname, the registration time
 * and whether the real-name verification is done: never the invitee's name, ID number, wallet,
 * account id or anything else. A cancelled (anonymised) invitee stays in the list and the count
 * with its tombstone nickname and a fully masked phone.
 */
export async function listInviteRecords(ctx: AppContext, userId: number, q: { pageNum: number; pageSize: number }): Promise<InviteRecordsPage> {
  const k = ctx.db.kysely;
  const [info, totals, rows] = await Promise.all([
    getInviteInfo(ctx, userId),
    k
      .selectFrom('users')
      .select((e) => [e.fn.countAll<number>().as('n'), e.fn.sum<number>('is_realname').as('realname')])
      .where('invited_by', '=', userId)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('users')
      .select(['mobile', 'nickname', 'created_at', 'is_realname'])
      .where('invited_by', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute(),
  ]);
  return {
    list: rows.map((r) => ({
      mobile: maskMobile(r.mobile),
      nickname: r.nickname,
      registeredAt: Number(r.created_at),
      isRealname: r.is_realname ? '1' : '0',
    })),
    total: Number(totals.n),
    pageNum: q.pageNum,
    pageSize: q.pageSize,
    inviteCode: info.inviteCode,
    invitedCount: info.invitedCount,
    realnameCount: Number(totals.realname ?? 0),
  };
}
