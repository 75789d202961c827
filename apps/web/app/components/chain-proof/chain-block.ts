import type { ChainBlock } from '@cfx/contract/chain.ts';
import type { ChainPaths } from '@cfx/contract/routes.ts';
import { api } from '../../lib/api.ts';

export type { ChainBlock };

/** Checked against the contract by type (a value import would grow the shared chunk). */
const BLOCK: (typeof ChainPaths)['block'] = '/chain/v1/block';

/** GET /chain/v1/block?epoch= — the pivot block of an epoch as the server's node reports it (read-only, rate-limited per IP). */
export function chainBlock(epoch: number) {
  return api<ChainBlock>(BLOCK, undefined, { method: 'GET', query: { epoch: String(epoch) }, silent: true });
}
