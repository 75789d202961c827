import type { AppContext } from '../../context.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { revealDueBoxes } from '../boxes/box-release.ts';
import { runBoxJob } from '../boxes/open-box.ts';
import { expireTransfers } from '../shift/apply-transfer.ts';
import { attachConsumeChain, chainConsume } from './consume-chain.ts';
import { expireComposes, runComposeJob } from './compose-flow.ts';
import { sweepExpiredHolds } from './holds.ts';

/**
 * The background work of blind boxes, compose and transfers on the market's job worker: the
 * durable `consume` job (a submitted box opening or compose), the reveal sweep (box releases whose
 * sale is over and whose reveal epoch the chain has reached), and the expiry sweep of flows waiting
 * for the user (their collectibles are released). Attaches the real chain side when there is one.
 */
export async function startGoodsFlows(ctx: AppContext, jobs: JobRunner) {
  if (ctx.chain) attachConsumeChain(ctx, await chainConsume(ctx.chain));
  jobs.register('consume', (job) => {
    const p = job.payload as { flow?: string; goodsId?: number; composeNo?: string };
    if (p.flow === 'box' && typeof p.goodsId === 'number') return runBoxJob(ctx, p.goodsId);
    if (p.flow === 'compose' && typeof p.composeNo === 'string') return runComposeJob(ctx, p.composeNo);
    return Promise.resolve({ done: true });
  });
  jobs.periodic('reveal-boxes', 3000, () => revealDueBoxes(ctx));
  jobs.periodic('expire-flows', 2000, async () => {
    await expireComposes(ctx);
    await expireTransfers(ctx);
    await sweepExpiredHolds(ctx);
  });
}
