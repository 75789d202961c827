import { Status } from '@cfx/contract/envelope.ts';
import type { ChainBlock } from '@cfx/contract/chain.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { createRpc, type Rpc } from '../../chain/rpc.ts';
import { blockExplorerUrl } from './block-explorer.ts';

const rpcs = new WeakMap<object, Rpc>();
const HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * GET /chain/v1/block?epoch=: the pivot block of `epoch` as the server's node reports it (the
 * embedded node or CHAIN_RPC_URL), read-only — the one block a lottery or blind-box proof depends
 * on, so anyone can check in the browser that the hash the draw used is the chain's hash at that
 * epoch. It calls only cfx_getBlockByEpochNumber(epoch, false) and cfx_epochNumber("latest_confirmed").
 * No chain or no answer → 1018; an epoch the chain has not reached → 1404.
 */
export async function getChainBlock(ctx: AppContext, epoch: number): Promise<ChainBlock> {
  const chain = ctx.chain;
  if (!chain) throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
  let rpc = rpcs.get(chain);
  if (!rpc) rpcs.set(chain, (rpc = createRpc(chain.rpcUrl, 10_000)));
  const quantity = `0x${epoch.toString(16)}`;
  let block: { hash?: string; parentHash?: string; height?: string; timestamp?: string; miner?: string; epochNumber?: string | null } | null;
  let confirmed: string;
  try {
    [block, confirmed] = await Promise.all([
      rpc.call<typeof block>('cfx_getBlockByEpochNumber', [quantity, false]).catch((err: Error) => {
        // The node refuses an epoch above its newest one ("expected a numbered epoch..."): not reached yet.
        if (/epoch|invalid params/i.test(err.message)) return null;
        throw err;
      }),
      rpc.call<string>('cfx_epochNumber', ['latest_confirmed']),
    ]);
  } catch {
    throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
  }
  if (!block?.hash || !HASH.test(block.hash)) throw new ApiError(Status.NOT_FOUND, 'chainBlockNotFound', { epoch }, 404);
  const hash = block.hash.toLowerCase();
  return {
    epochNumber: epoch,
    hash,
    parentHash: (block.parentHash ?? '').toLowerCase(),
    height: Number(BigInt(block.height ?? quantity)),
    timestamp: Number(BigInt(block.timestamp ?? '0x0')),
    miner: block.miner ?? '',
    confirmed: epoch <= Number(BigInt(confirmed)),
    networkId: chain.networkId,
    embedded: chain.embedded,
    explorerUrl: blockExplorerUrl(ctx, hash),
  };
}
