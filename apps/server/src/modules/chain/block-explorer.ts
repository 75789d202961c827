import type { AppContext } from '../../context.ts';

/** Networks a public explorer (CHAIN_EXPLORER_URL, confluxscan) knows: Conflux Core mainnet and testnet. */
const PUBLIC_NETWORKS = new Set([1029, 1]);

/**
 * The explorer link of a block, or null where no public explorer knows the chain: the embedded dev
 * node (its id is 1029 too, but its blocks exist only on this server) and any other network id.
 * There the proof pages show the block as the server's node reports it (GET /chain/v1/block).
 */
export function blockExplorerUrl(ctx: AppContext, hash: string): string | null {
  if (ctx.chain?.embedded) return null;
  const networkId = ctx.chain?.networkId ?? ctx.config.chain.networkId;
  if (!PUBLIC_NETWORKS.has(networkId)) return null;
  return `${ctx.chain?.explorerUrl ?? ctx.config.chain.explorerUrl}/block/${hash}`;
}
