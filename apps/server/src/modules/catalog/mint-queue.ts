import type { AppContext } from '../../context.ts';

/**
 * The chain service's side of the catalog: collectibles waiting to be minted, and marking them
 * minted. Goods are created `pending` with their token id (inside the release's token range).
 */
export interface UnmintedGoods {
  id: number;
  projectId: number;
  /** Decimal token id on the asset contract. */
  tokenId: string;
  contract: string | null;
  ownerUserId: number;
  ownerWallet: string | null;
  /** Failed single mints so far and when the last one failed (business time; migration 0021). */
  mintFailures: number;
  mintFailedAt: number | null;
}

/** Up to `limit` pending collectibles with a token id, oldest first. */
export async function listUnmintedGoods(ctx: AppContext, limit: number): Promise<UnmintedGoods[]> {
  const rows = await ctx.db.kysely
    .selectFrom('goods')
    .innerJoin('users', 'users.id', 'goods.owner_user_id')
    .select(['goods.id', 'goods.project_id', 'goods.token_id', 'goods.contract', 'goods.owner_user_id', 'users.wallet_address', 'goods.mint_failures', 'goods.mint_failed_at'])
    .where('goods.chain_status', '=', 'pending')
    .where('goods.token_id', 'is not', null)
    .orderBy('goods.id')
    .limit(Math.max(1, Math.min(10_000, Math.floor(limit))))
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    projectId: Number(r.project_id),
    tokenId: String(r.token_id),
    contract: r.contract,
    ownerUserId: Number(r.owner_user_id),
    ownerWallet: r.wallet_address,
    mintFailures: Number(r.mint_failures),
    mintFailedAt: r.mint_failed_at === null ? null : Number(r.mint_failed_at),
  }));
}

/**
 * Marks collectibles minted (idempotent: already-minted ones are left as they are). `contract`
 * and `txHash`, when given, are recorded on them. Returns how many changed.
 */
export async function markMinted(ctx: AppContext, ids: number[], info: { contract?: string; txHash?: string } = {}): Promise<number> {
  if (!ids.length) return 0;
  let changed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const res = await ctx.db.kysely
      .updateTable('goods')
      .set({
        chain_status: 'minted',
        minted_at: ctx.now(),
        ...(info.contract ? { contract: info.contract } : {}),
        ...(info.txHash ? { mint_tx_hash: info.txHash } : {}),
      })
      .where('id', 'in', chunk)
      .where('chain_status', '=', 'pending')
      .executeTakeFirst();
    changed += Number(res.numUpdatedRows);
  }
  return changed;
}
