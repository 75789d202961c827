import { Status } from '@cfx/contract/envelope.ts';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { GoodsHoldKind } from '../../db/schema.ts';
import { changed, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';

/**
 * Holds: a collectible taken by a flow (box opening, compose, a transfer waiting for the wallet)
 * has one `goods_holds` row (primary key goods_id: two flows can never hold it together). While a
 * hold is active (no expiry, or not expired yet) the collectible cannot be listed, bid-accepted,
 * opened, composed or moved by anything else. A hold of a flow waiting for the user expires after
 * FLOW_HOLD_SECONDS; once the flow's chain transaction is out it is held until the flow ends.
 *
 * Lock order: every writer locks the goods rows first (a conditional UPDATE), then goods_holds —
 * openSale and agreeBargin do the same (market/repo.ts lockListable), so a listing and a hold can
 * never both win.
 */

/** An active hold's condition at `now` (the column is nullable: null = until the flow ends). */
export const activeAt = (now: number) => sql<boolean>`(goods_holds.expires_at is null or goods_holds.expires_at > ${now})`;

/** The active hold of a collectible, if any. */
export async function activeHold(q: Q, goodsId: number, now: number) {
  return q.selectFrom('goods_holds').selectAll().where('goods_id', '=', goodsId).where(activeAt(now)).executeTakeFirst();
}

export interface TakeInput {
  userId: number;
  goodsIds: number[];
  kind: GoodsHoldKind;
  ref: string;
  /** null: until the flow ends. */
  expiresAt: number | null;
  now: number;
}

/**
 * Takes collectibles for a flow inside the caller's transaction: each must be the user's, minted,
 * held (not listed, not burned) and at the linked wallet, and free of any active hold. Locks the
 * goods rows (conditional UPDATE), clears expired holds, inserts the new ones. Throws 1013
 * goodsLocked / composeFragmentUnavailable when one is not free (the transaction rolls back).
 */
export async function takeGoods(trx: Q, t: TakeInput, unavailableKey: 'goodsLocked' | 'composeFragmentUnavailable' = 'goodsLocked') {
  const ids = [...new Set(t.goodsIds)];
  const res = await trx
    .updateTable('goods')
    .set({ status: 'held' })
    .where('id', 'in', ids)
    .where('owner_user_id', '=', t.userId)
    .where('status', '=', 'held')
    .where('chain_status', '=', 'minted')
    .where('holder_address', 'is', null)
    .executeTakeFirst();
  if (changed(res) !== ids.length) throw new ApiError(Status.GOODS_STATE, unavailableKey);
  // An accepted bid reserves a listing without listing the goods: that counts as taken too.
  const live = await trx.selectFrom('listings').select('id').where('goods_id', 'in', ids).where('status', 'in', ['on_sale', 'reserved']).executeTakeFirst();
  if (live) throw new ApiError(Status.GOODS_STATE, unavailableKey);
  await trx.deleteFrom('goods_holds').where('goods_id', 'in', ids).where('expires_at', 'is not', null).where('expires_at', '<=', t.now).execute();
  const held = await trx.selectFrom('goods_holds').select('goods_id').where('goods_id', 'in', ids).executeTakeFirst();
  if (held) throw new ApiError(Status.GOODS_STATE, unavailableKey);
  await trx
    .insertInto('goods_holds')
    .values(ids.map((goods_id) => ({ goods_id, kind: t.kind, ref: t.ref, user_id: t.userId, expires_at: t.expiresAt, created_at: t.now })))
    .execute();
}

/** The flow's chain transaction is out: its holds last until it ends. */
export async function holdUntilDone(trx: Q, ref: string) {
  await trx.updateTable('goods_holds').set({ expires_at: null }).where('ref', '=', ref).execute();
}

/** Re-arms a waiting flow's holds (a fresh signing window). */
export async function extendHolds(trx: Q, ref: string, expiresAt: number) {
  await trx.updateTable('goods_holds').set({ expires_at: expiresAt }).where('ref', '=', ref).where('expires_at', 'is not', null).execute();
}

export async function releaseHolds(trx: Q, ref: string) {
  return changed(await trx.deleteFrom('goods_holds').where('ref', '=', ref).executeTakeFirst());
}

/** Drops holds that expired (their flows notice by their own expiry). */
export async function sweepExpiredHolds(ctx: AppContext) {
  await ctx.db.kysely.deleteFrom('goods_holds').where('expires_at', 'is not', null).where('expires_at', '<=', ctx.now()).execute();
}
