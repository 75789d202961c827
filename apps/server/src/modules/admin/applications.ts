import type { AdminApplicationDetail, AdminApplicationRow, Page } from '@cfx/contract/admin.ts';
import type { SettledStatus } from '../../db/schema.ts';
import type { AppContext } from '../../context.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { ApiError } from '../../http/envelope.ts';
import { maskMobile } from '../../util/crypto.ts';
import { applicationViews } from '../settled/index.ts';

/**
 * Project applications for the reviewers (docs/admin.md "Applications"): the queue (oldest open
 * first, or by status), one application with its history, and its files — artworks by their public
 * URL, qualification documents only through the staff download route (files.ts). Decisions go
 * through modules/settled reviewApplication (routes.ts).
 */
export async function listApplications(ctx: AppContext, input: { status?: SettledStatus | null; pageNum: number; pageSize: number }): Promise<Page<AdminApplicationRow>> {
  const k = ctx.db.kysely;
  let base = k.selectFrom('settled_applications');
  base = input.status ? base.where('status', '=', input.status) : base;
  const total = Number((await base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const open = !input.status || input.status === 'submitted' || input.status === 'reviewing';
  const ids = await base
    .select(['id'])
    .orderBy('id', open ? 'asc' : 'desc')
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize)
    .execute();
  const list = await withApplicants(ctx, ids.map((r) => Number(r.id)));
  const order = new Map(ids.map((r, i) => [Number(r.id), i]));
  list.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { list, total, pageNum: input.pageNum, pageSize: input.pageSize };
}

async function withApplicants(ctx: AppContext, ids: number[]): Promise<AdminApplicationRow[]> {
  if (!ids.length) return [];
  const views = await applicationViews(ctx, ids);
  const users = await ctx.db.kysely
    .selectFrom('settled_applications as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'u.id as userId', 'u.account_id', 'u.mobile'])
    .where('a.id', 'in', ids)
    .execute();
  const by = new Map(users.map((u) => [Number(u.id), u]));
  return views.map((v) => {
    const u = by.get(v.id)!;
    // The contact phone the applicant typed is shown as typed (it is business contact data of the application).
    return { ...v, userId: Number(u.userId), accountId: u.account_id, mobileMasked: maskMobile(u.mobile) };
  });
}

export async function applicationDetail(ctx: AppContext, id: number): Promise<AdminApplicationDetail> {
  const [row] = await withApplicants(ctx, [id]);
  if (!row) throw new ApiError(Status.NOT_FOUND_ITEM, 'settledNotFound', {}, 404);
  const events = await ctx.db.kysely
    .selectFrom('settled_application_events')
    .select(['from_status', 'to_status', 'reason', 'created_at', 'actor_user_id'])
    .where('application_id', '=', id)
    .orderBy('id')
    .execute();
  return {
    ...row,
    events: events.map((e) => ({ from: e.from_status, to: e.to_status, reason: e.reason, at: Number(e.created_at), byStaff: Number(e.actor_user_id) !== row.userId })),
  };
}
