import type { AppContext } from '../context.ts';
import { revealDueBoxes, runBoxJob } from '../modules/boxes/index.ts';
import { attachConsumeChain, chainConsume, consumeJob, expireComposes, runComposeJob, sweepExpiredHolds } from '../modules/compose/index.ts';
import { expireTransfers } from '../modules/shift/index.ts';

/**
 * The background work of blind boxes, compose and transfers on the job worker (ctx.jobs): the
 * durable `consume` job (a submitted box opening or compose: boxes and compose share compose's
 * consume machinery), the reveal sweep (box releases whose sale is over and whose reveal epoch the
 * chain has reached), and the expiry sweep of flows waiting for the user (their collectibles are
 * released). Attaches the real chain side when there is one.
 */
export async function startGoodsFlows(ctx: AppContext) {
  if (ctx.chain) attachConsumeChain(ctx, await chainConsume(ctx.chain));
  ctx.jobs.handle(consumeJob, (p) => {
    if (p.flow === 'box' && typeof p.goodsId === 'number') return runBoxJob(ctx, p.goodsId);
    if (p.flow === 'compose' && typeof p.composeNo === 'string') return runComposeJob(ctx, p.composeNo);
    return Promise.resolve({ done: true });
  });
  ctx.jobs.periodic('reveal-boxes', 3000, () => revealDueBoxes(ctx));
  ctx.jobs.periodic('expire-flows', 2000, async () => {
    await expireComposes(ctx);
    await expireTransfers(ctx);
    await sweepExpiredHolds(ctx);
  });
}
