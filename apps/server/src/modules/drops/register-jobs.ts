import type { AppContext } from '../../context.ts';
import { completeMintedDropOrders } from './complete-drop-order.ts';
import { fulfilInBatch, fulfilJob } from './fulfil-drop-order.ts';
import { LOTTERY_SWEEP_MS, runLotteryDraws } from './lottery.ts';

/**
 * The primary sale's background work on the job worker (ctx.jobs): the `fulfil` job of a paid drop
 * order, and the sweep that completes drop orders whose collectibles are all minted (the mint pass
 * completes them itself; the sweep catches what a crash between the two left behind).
 */
export function registerDropJobs(ctx: AppContext) {
  const jobs = ctx.jobs;
  jobs.handle(fulfilJob, (p) => fulfilInBatch(ctx, p.orderNo));
  jobs.periodic('complete-drops', 2000, () => completeMintedDropOrders(ctx));
  // Lotteries: freeze the entry list when sign-up is over, draw once the seed epoch is confirmed (lottery.ts).
  jobs.periodic('lottery-draws', LOTTERY_SWEEP_MS, () => runLotteryDraws(ctx));
}
