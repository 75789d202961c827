import type { AppContext } from '../../context.ts';
import { keyList } from '../../db/key-list.ts';
import { notifyLotteryResults, type LotteryResult } from './events.ts';
import { sweepPass } from './sweep-pass.ts';
import { parseParams } from './render.ts';

/**
 * Turns the drops module's result events (`drop_events`, written by the lottery draw in its own
 * transaction — docs/drops.md) into messages, up to `limit` a pass in one transaction: the pass's
 * undelivered events are marked delivered by one conditional UPDATE … RETURNING and those it moved
 * become their messages (dedupe `lottery:<projectId>`), so each is delivered exactly once even with a
 * crash in between or two workers; a pass that fails is delivered event by event (sweep-pass.ts).
 * Runs with the message sweeps (every 5 s). One transaction per event made a popular lottery's tens
 * of thousands of results hold SQLite's event loop pass after pass.
 */
export async function deliverDropEvents(ctx: AppContext, limit = 500): Promise<number> {
  const rows = await ctx.db.kysely.selectFrom('drop_events').select(['id', 'kind', 'project_id', 'user_id', 'payload']).where('delivered_at', 'is', null).orderBy('id').limit(limit).execute();
  const now = ctx.now();
  return sweepPass(ctx, rows, async (trx, pass) => {
    const won = await trx
      .updateTable('drop_events')
      .set({ delivered_at: now })
      .where('id', 'in', keyList(ctx, pass.map((r) => Number(r.id))))
      .where('delivered_at', 'is', null)
      .returning('id')
      .execute();
    const moved = new Set(won.map((w) => Number(w.id)));
    return notifyLotteryResults(ctx, trx, pass.filter((r) => moved.has(Number(r.id)) && r.kind === 'lottery_result').map(resultOf), now);
  });
}

/** A lottery_result event's payload as the entrant's result (a link only when it is a site path). */
function resultOf(r: { project_id: number | string; user_id: number | string; payload: string }): LotteryResult {
  const p = parseParams(r.payload);
  const quota = Number(p.quota ?? 0);
  return {
    userId: Number(r.user_id),
    projectId: Number(r.project_id),
    won: p.won === true,
    count: Number.isFinite(quota) ? quota : 0,
    deadlineAt: typeof p.rightsEndAt === 'number' ? p.rightsEndAt : null,
    name: typeof p.name === 'string' ? p.name : undefined,
    link: typeof p.link === 'string' && /^\/(?![/\\])/.test(p.link) ? p.link : null, // a site path only (not //host)
  };
}
