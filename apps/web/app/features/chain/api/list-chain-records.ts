import type { z } from 'zod';
import type { chainRecord } from '@cfx/contract/chain.ts';
import { ChainPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** One indexed on-chain event of a token (type-only from the contract: no zod in the bundle). */
export type ChainRecord = z.infer<typeof chainRecord>;

/** GET /goods/v1/list/chainRecord/?tokenId= → the token's records, oldest first. */
export function listChainRecords(tokenId: string, signal?: AbortSignal) {
  return api<ChainRecord[]>(ChainPaths.chainRecord, undefined, { method: 'GET', query: { tokenId }, signal, silent: true });
}
