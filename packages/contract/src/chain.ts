import { z } from 'zod';

export const chainInfo = z.object({
  enabled: z.boolean(),
  networkId: z.number().int(),
  collectible: z.string(),
  exchange: z.string(),
  collectibleHex: z.string(),
  exchangeHex: z.string(),
  explorerUrl: z.string(),
  /** True on the embedded dev chain: the web may offer the built-in dev wallet. */
  devWallet: z.boolean(),
  /** JSON-RPC proxy path for the dev wallet ('' when not embedded). */
  rpcPath: z.string(),
});
export type ChainInfo = z.infer<typeof chainInfo>;

/** GET /chain/v1/block?epoch=: the pivot block of an epoch as the server's node reports it (a draw proof's seed block). */
export const chainBlockQuery = z.object({ epoch: z.string().regex(/^\d{1,15}$/) });
export const chainBlock = z.object({
  epochNumber: z.number().int(),
  /** Pivot block hash, 0x + 64 lower-case hex. */
  hash: z.string(),
  parentHash: z.string(),
  height: z.number().int(),
  /** Block time, Unix seconds. */
  timestamp: z.number().int(),
  miner: z.string(),
  /** The epoch is at or below the node's latest_confirmed epoch (its pivot block will not change). */
  confirmed: z.boolean(),
  networkId: z.number().int(),
  /** True when the block comes from the server's own embedded dev chain, which no public explorer knows. */
  embedded: z.boolean(),
  /** The block on the public explorer (mainnet 1029 / testnet 1 only), null on the embedded chain. */
  explorerUrl: z.string().nullable(),
});
export type ChainBlock = z.infer<typeof chainBlock>;

export const chainRecord = z.object({
  txHash: z.string(),
  epoch: z.number().int(),
  event: z.string(),
  from: z.string(),
  to: z.string(),
  tokenId: z.string(),
  contract: z.string(),
  time: z.number().int(),
  explorerUrl: z.string(),
});
