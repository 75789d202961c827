import type { AppContext } from '../../context.ts';
import { changed, inTx } from '../../db/tx.ts';
import { notifyLotteryResult } from './events.ts';
import { parseParams } from './render.ts';

/**
 * Turns the drops module's result events (`drop_events`, written by the lottery draw in its own
 * transaction — docs/drops.md) into messages: each undelivered event, in one transaction, is marked
 * delivered by a conditional UPDATE and becomes its message (dedupe `lottery:<projectId>`), so it
 * is delivered exactly once even with a crash in between or two workers. Runs with the message
 * sweeps (every 5 s).
 */
export async function deliverDropEvents(ctx: AppContext, limit = 500): Promise<number> {
  const rows = await ctx.db.kysely
    .selectFrom('drop_events')
    .select(['id', 'kind', 'project_id', 'user_id', 'payload'])
    .where('delivered_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  let n = 0;
  for (const r of rows) {
    const now = ctx.now();
    const made = await inTx(ctx, async (trx) => {
      const won = await trx.updateTable('drop_events').set({ delivered_at: now }).where('id', '=', Number(r.id)).where('delivered_at', 'is', null).executeTakeFirst();
      if (changed(won) !== 1 || r.kind !== 'lottery_result') return null;
      const p = parseParams(r.payload);
      const quota = Number(p.quota ?? 0);
      return notifyLotteryResult(
        ctx,
        trx,
        {
          userId: Number(r.user_id),
          projectId: Number(r.project_id),
          won: p.won === true,
          count: Number.isFinite(quota) ? quota : 0,
          deadlineAt: typeof p.rightsEndAt === 'number' ? p.rightsEndAt : null,
          name: typeof p.name === 'string' ? p.name : undefined,
          link: typeof p.link === 'string' && /^\/(?![/\\])/.test(p.link) ? p.link : null, // a site path only (not //host)
        },
        now,
      );
    });
    if (made !== null) n++;
  }
  return n;
}
