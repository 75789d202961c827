import { Status } from '@cfx/contract/envelope.ts';
import type { RemindData } from '@cfx/contract/user-messages.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import './tables.ts';

async function release(ctx: AppContext, projectId: number) {
  const p = await ctx.db.kysely.selectFrom('projects').select(['id', 'sale_start_at']).where('id', '=', projectId).executeTakeFirst();
  if (!p) throw new ApiError(Status.NOT_FOUND_ITEM, 'projectNotFound', {}, 404);
  return { id: Number(p.id), saleStartAt: Number(p.sale_start_at) };
}

function view(ctx: AppContext, projectId: number, saleStartAt: number, row: { notified_at: number | null } | undefined): RemindData {
  return {
    projectId,
    subscribed: !!row,
    saleStartAt,
    remindAt: row ? Math.max(0, saleStartAt - ctx.config.messages.dropRemindLeadMs) : null,
    notified: !!row && row.notified_at !== null,
  };
}

export async function reminderStatus(ctx: AppContext, userId: number, projectId: number): Promise<RemindData> {
  const p = await release(ctx, projectId);
  const row = await ctx.db.kysely.selectFrom('drop_reminders').select('notified_at').where('project_id', '=', p.id).where('user_id', '=', userId).executeTakeFirst();
  return view(ctx, p.id, p.saleStartAt, row);
}

/**
 * "Remind me": subscribes to (on) or cancels (off) the reminder of a release's sale start. Only
 * before the start (1024 发售已开始 after it); subscribing twice is a no-op. The reminder is a
 * `drop_starting` message DROP_REMIND_MINUTES before the start (events.ts notifyDropReminders).
 */
export async function setReminder(ctx: AppContext, userId: number, projectId: number, on: boolean): Promise<RemindData> {
  const p = await release(ctx, projectId);
  const now = ctx.now();
  const k = ctx.db.kysely;
  if (on) {
    if (p.saleStartAt <= now) throw new ApiError(Status.DROP_NOT_ON_SALE, 'remindStarted');
    await k.insertInto('drop_reminders').values({ project_id: p.id, user_id: userId, created_at: now, notified_at: null }).onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing()).execute();
  } else {
    await k.deleteFrom('drop_reminders').where('project_id', '=', p.id).where('user_id', '=', userId).where('notified_at', 'is', null).execute();
  }
  return reminderStatus(ctx, userId, p.id);
}
