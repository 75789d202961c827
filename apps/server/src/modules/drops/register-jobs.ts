import type { AppContext } from '../../context.ts';
import { reservationsFlowing } from './admission.ts';
import { completeMintedDropOrders } from './complete-drop-order.ts';
import { fulfilInBatch, fulfilJob } from './fulfil-drop-order.ts';
import { LOTTERY_SWEEP_MS, runLotteryDraws } from './lottery.ts';
import { sweepStockReturns } from './stock.ts';

/**
 * The primary sale's background work on the job worker (ctx.jobs): the `fulfil` job of a paid drop
 * order (held back while the process admits reservations), and the sweep that completes drop orders
 * whose collectibles are all minted (the mint pass completes them itself; the sweep catches what a
 * crash between the two left behind), and the sweep of units given back but not folded into the stock.
 */
export function registerDropJobs(ctx: AppContext) {
  const jobs = ctx.jobs;
  jobs.handle(fulfilJob, (p) => fulfilInBatch(ctx, p.orderNo));
  // While this process admits a sale's reservations, fulfilment (and so minting) waits up to
  // DROP_FULFIL_HOLD_MS: the buyers' requests first, the collectibles right after the flood.
  jobs.holdWhile([fulfilJob.kind], () => reservationsFlowing(ctx), ctx.config.drops.fulfilHoldMs);
  jobs.periodic('complete-drops', 2000, () => completeMintedDropOrders(ctx));
  // Units given back whose fold after the commit did not happen (a crash, an error): folded here (stock.ts).
  jobs.periodic('fold-stock-returns', 2000, () => sweepStockReturns(ctx));
  // Lotteries: freeze the entry list when sign-up is over, draw once the seed epoch is confirmed (lottery.ts).
  jobs.periodic('lottery-draws', LOTTERY_SWEEP_MS, () => runLotteryDraws(ctx));
}
