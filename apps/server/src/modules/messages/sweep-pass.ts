import type { AppContext } from '../../context.ts';
import { inTx, type Q } from '../../db/tx.ts';

/**
 * A message sweep's pass: `write` tells the pass's items in one transaction and answers a message id
 * (or null: nothing new) per notice. If that transaction fails, each item is tried in a transaction of
 * its own, so one bad row cannot hold the pass's others back pass after pass; the first error is then
 * rethrown for the job worker to log. Returns how many messages were made.
 */
export async function sweepPass<T>(ctx: Pick<AppContext, 'db'>, items: readonly T[], write: (trx: Q, items: readonly T[]) => Promise<readonly (number | null)[]>): Promise<number> {
  const made = (ids: readonly (number | null)[]) => ids.filter((id) => id !== null).length;
  if (!items.length) return 0;
  try {
    return made(await inTx(ctx, (trx) => write(trx, items)));
  } catch (err) {
    if (items.length === 1) throw err;
    let n = 0;
    let first: unknown;
    for (const item of items) {
      try {
        n += made(await inTx(ctx, (trx) => write(trx, [item])));
      } catch (e) {
        first ??= e;
      }
    }
    if (first !== undefined) throw first;
    return n;
  }
}
