import type { AppContext } from '../../context.ts';

/** A token's indexed on-chain history, oldest first, with explorer links. */
export async function listChainRecords(ctx: AppContext, tokenId: string, contract?: string) {
  const c = contract || ctx.chain?.collectible;
  if (!c) return [];
  const rows = await ctx.db.kysely
    .selectFrom('chain_records')
    .selectAll()
    .where('token_id', '=', tokenId)
    .where((e) => e.or([e('contract', '=', c), e('event', '=', 'OrderExecuted')]))
    .orderBy('epoch')
    .orderBy('log_index')
    .limit(200)
    .execute();
  const explorer = ctx.chain?.explorerUrl ?? ctx.config.chain.explorerUrl;
  return rows.map((r) => ({
    txHash: r.tx_hash,
    epoch: Number(r.epoch),
    event: r.event,
    from: r.from_address ?? '',
    to: r.to_address ?? '',
    tokenId: r.token_id ?? '',
    contract: r.contract,
    time: Number(r.block_time),
    explorerUrl: `${explorer}/transaction/${r.tx_hash}`,
  }));
}
