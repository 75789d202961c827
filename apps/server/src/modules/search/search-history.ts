import type { AppContext } from '../../context.ts';

export const HISTORY_MAX = 10;

/** Records a search of a signed-in user: newest first, each text once, at most 10 kept. */
export async function recordSearch(ctx: AppContext, userId: number, kw: string) {
  const now = ctx.now();
  await ctx.db.kysely.transaction().execute(async (tx) => {
    await tx
      .insertInto('search_history')
      .values({ user_id: userId, kw, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'kw']).doUpdateSet({ created_at: now }))
      .execute();
    const keep = tx.selectFrom('search_history').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(HISTORY_MAX);
    await tx.deleteFrom('search_history').where('user_id', '=', userId).where('id', 'not in', keep).execute();
  });
}

export async function listSearchHistory(ctx: AppContext, userId: number): Promise<string[]> {
  const rows = await ctx.db.kysely
    .selectFrom('search_history')
    .select('kw')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(HISTORY_MAX)
    .execute();
  return rows.map((r) => r.kw);
}

/** Deletes one text from the history (or all of it). Deleting a text that is not there is not an error. */
export async function deleteSearchHistory(ctx: AppContext, userId: number, kw: string | null | undefined, all: boolean) {
  let q = ctx.db.kysely.deleteFrom('search_history').where('user_id', '=', userId);
  if (!all) q = q.where('kw', '=', (kw ?? '').trim());
  await q.execute();
}
