import type { AppContext } from './context.ts';
import { startMintJob } from './chain/mint-job.ts';

type Log = (msg: string, extra?: unknown) => void;

/**
 * The worker role: the background work of a process — the chain workers (whenever there is a
 * chain: the operator's transaction queue, the event indexer, the mint worker that mints pending
 * collectibles) and the durable job worker (ctx.jobs, with every job handler and sweep attached
 * before this starts it; MARKET_JOBS). Started once by buildApp after every module and flow
 * attached its jobs; `stop()` ends all of them (the chain node itself stays until ctx.chain.stop()).
 * This is the one place where the role starts and stops.
 */
export async function startWorkerRole(ctx: AppContext, log: Log): Promise<{ stop(): Promise<void> }> {
  await ctx.chain?.startWorkers();
  const mintJob = ctx.chain ? startMintJob(ctx, log) : undefined;
  if (ctx.config.market.jobs && !ctx.jobs.running) await ctx.jobs.start();
  return {
    async stop() {
      await ctx.jobs.stop();
      await mintJob?.stop();
      await ctx.chain?.queue.stop();
      await ctx.chain?.indexer.stop();
    },
  };
}
