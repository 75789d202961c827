import type { AppContext } from './context.ts';
import { startMintJob } from './chain/mint-job.ts';

type Log = (msg: string, extra?: unknown) => void;

/**
 * The worker role: the background work one process per database runs — the durable job worker
 * (ctx.jobs, with every job handler and sweep attached before this starts it; MARKET_JOBS) and the
 * chain mint worker (pending collectibles minted on chain, whenever there is a chain). Started once
 * by buildApp after every module and flow attached its jobs; `stop()` ends both. This is the one
 * place where the role starts and stops.
 */
export async function startWorkerRole(ctx: AppContext, log: Log): Promise<{ stop(): Promise<void> }> {
  const mintJob = ctx.chain ? startMintJob(ctx, log) : undefined;
  if (ctx.config.market.jobs && !ctx.jobs.running) await ctx.jobs.start();
  return {
    async stop() {
      await ctx.jobs.stop();
      await mintJob?.stop();
    },
  };
}
