import { MESSAGE_KINDS, type MessageItem, type MessageKind } from '@cfx/contract/user-messages.ts';
import type { Lang } from '@cfx/contract/messages.ts';
import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';
import { changed, type Q } from '../../db/tx.ts';
import { messageView } from './render.ts';
import { signalUser } from './signal.ts';
import './tables.ts';

/** The user's unread messages shown in the message center. */
export async function unreadCount(q: Q, userId: number): Promise<number> {
  const r = await q.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('in_app', '=', 1).where('read_at', 'is', null).executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function unreadByKind(q: Q, userId: number): Promise<{ count: number; byKind: Record<MessageKind, number> }> {
  const rows = await q
    .selectFrom('messages')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .where('in_app', '=', 1)
    .where('read_at', 'is', null)
    .groupBy('kind')
    .execute();
  const byKind = Object.fromEntries(MESSAGE_KINDS.map((k) => [k, 0])) as Record<MessageKind, number>;
  let count = 0;
  for (const r of rows) {
    if (r.kind in byKind) byKind[r.kind] = Number(r.n);
    count += Number(r.n);
  }
  return { count, byKind };
}

/** msglist: the caller's messages, newest first, optionally one kind / unread only; reading marks nothing. */
export async function listMessages(
  ctx: AppContext,
  userId: number,
  input: { pageNum: number; pageSize: number; kind?: MessageKind | null; unread?: boolean | null },
  lang: Lang,
): Promise<Page<MessageItem> & { unread: number }> {
  const k = ctx.db.kysely;
  let base = k.selectFrom('messages').where('user_id', '=', userId).where('in_app', '=', 1);
  if (input.kind) base = base.where('kind', '=', input.kind);
  if (input.unread) base = base.where('read_at', 'is', null);
  const [totalRow, rows, unread] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .select(['id', 'kind', 'title_key', 'body_key', 'params', 'link', 'read_at', 'created_at'])
      .orderBy('id', 'desc')
      .limit(input.pageSize)
      .offset((input.pageNum - 1) * input.pageSize)
      .execute(),
    unreadCount(k, userId),
  ]);
  return { list: rows.map((r) => messageView(r, lang)), total: Number(totalRow?.n ?? 0), pageNum: input.pageNum, pageSize: input.pageSize, unread };
}

/** Marks the caller's messages read: the given ids, or all (of one kind). Others' ids are ignored. */
export async function markRead(ctx: AppContext, userId: number, input: { ids?: number[] | null; all?: boolean | null; kind?: MessageKind | null }) {
  const k = ctx.db.kysely;
  const now = ctx.now();
  const updated = await k.transaction().execute(async (trx) => {
    let u = trx.updateTable('messages').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null);
    if (input.all) {
      if (input.kind) u = u.where('kind', '=', input.kind);
    } else {
      u = u.where('id', 'in', [...new Set(input.ids ?? [])]);
    }
    const n = changed(await u.executeTakeFirst());
    // The user's other streams (other tabs, other processes) update their count.
    if (n > 0) await signalUser(ctx.db, trx, userId);
    return n;
  });
  return { updated, unread: await unreadCount(k, userId) };
}
