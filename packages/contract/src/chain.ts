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
