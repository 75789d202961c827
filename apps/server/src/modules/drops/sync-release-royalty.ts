import { toHexAddress } from '@cfx/protocol/address.ts';
import type { AppContext } from '../../context.ts';
import { royaltyPermilleOf } from '../market/index.ts';

/**
 * Tells the Collectible a release's royalty, so other marketplaces read it through EIP-2981
 * `royaltyInfo` (docs/chain.md "Royalties (EIP-2981)"): the operator's
 * `setRangeRoyalty(tokenStart, tokenEnd, receiver, bps)` on its durable queue — the release's token
 * range, its royalty as it applies now (its own rate, else ROYALTY_PERMILLE; per mille × 10 = basis
 * points) and the creator's linked wallet as the receiver (the operator's address while the creator
 * has none: the platform then passes what it receives on). Called after a release was created or
 * its royalty, creator or range changed (the console's release editor), once its transaction has
 * committed. The key names the values and the time, so each change is sent once and a change back
 * to earlier values is sent again. Answers the queue id, null without a chain or a token range.
 * A chain whose Collectible predates EIP-2981 refuses the call; the queue records the failure.
 */
export async function syncReleaseRoyalty(ctx: AppContext, projectId: number): Promise<number | null> {
  const chain = ctx.chain;
  if (!chain) return null;
  const p = await ctx.db.kysely
    .selectFrom('projects')
    .innerJoin('creators', 'creators.id', 'projects.creator_id')
    .innerJoin('users', 'users.id', 'creators.user_id')
    .select(['projects.token_start', 'projects.token_end', 'projects.royalty_permille', 'users.wallet_address'])
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
  if (!p || p.token_start === null || p.token_end === null) return null;
  const bps = royaltyPermilleOf(ctx, p.royalty_permille) * 10;
  const receiver = toHexAddress(p.wallet_address ?? chain.operatorAddress).toLowerCase();
  const start = BigInt(p.token_start);
  const end = BigInt(p.token_end);
  const data = chain.contracts.collectible.setRangeRoyalty(start, end, receiver, bps).data as string;
  const key = `royalty:${projectId}:${start}-${end}:${bps}:${receiver}:${ctx.now()}`;
  return chain.queue.enqueue({ key, kind: 'royalty', to: chain.collectible, data });
}
