/**
 * The proof pages' live block check (docs/drops.md "Checking the seed block"): the block a draw
 * depends on is fetched through the server (GET /chain/v1/block?epoch=) and its hash compared with
 * the hash the draw published. Pure: the page passes the API answer in; unit-tested.
 */
import type { ApiResult } from '../../lib/api.ts';
import type { ChainBlock } from './chain-block.ts';

export type BlockCheck =
  | { state: 'loading' }
  /** The chain's block at the epoch has the published hash: the recompute may use it. */
  | { state: 'match'; block: ChainBlock }
  /** The chain answered another block (or another epoch) than the draw published. */
  | { state: 'mismatch'; block: ChainBlock }
  /** No answer to compare with (no chain, the node down, the per-IP limit): nothing is claimed. */
  | { state: 'error'; message: string };

const HASH = /^0x[0-9a-f]{64}$/;

/** Compares the published seed block (epoch, hash) with what the server's node answered. */
export function checkSeedBlock(published: { epoch: number; blockHash: string }, answer: ApiResult<ChainBlock>): BlockCheck {
  if (!answer.ok || !answer.data) return { state: 'error', message: answer.message };
  const block = answer.data;
  const hash = String(block.hash).toLowerCase();
  if (!HASH.test(hash)) return { state: 'error', message: answer.message };
  const same = block.epochNumber === published.epoch && hash === published.blockHash.toLowerCase();
  return { state: same ? 'match' : 'mismatch', block };
}

/** The hash the in-browser recompute should start from: the chain's own when it was read, else the published one. */
export function seedHashForRecompute(published: string, check: BlockCheck): string {
  return check.state === 'match' || check.state === 'mismatch' ? check.block.hash.toLowerCase() : published;
}
