/** The public face of modules/drops: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { shareSellingSignal } from './admission.ts';
export { afterPaymentJob } from './after-payment.ts';
export { nextFreeTokenId } from './create-drop-release.ts';
export { createRelease, releaseChanged, releaseRole, releaseState, updateRelease, windowHoldsPhases } from './edit-release.ts';
export { epochTiming } from './lottery-beacon.ts';
export { lotteryView } from './lottery.ts';
export { mintPendingGoods, onMintWanted } from './mint-batches.ts';
export type { MintOutcome, Minter } from './mint-batches.ts';
export { dropSubject } from './payment-subject.ts';
export { clearDropPhases, currentPhase, loadPlan, phaseViews, setDropPhases, timeline } from './phases.ts';
export { registerDropJobs } from './register-jobs.ts';
export { releaseDropOrders } from './release-drop-order.ts';
export { forgetDropReleases } from './release.ts';
export { createDropOrderFor, dropRoutes, isDropOrderBody } from './routes.ts';
export { setDropSettings } from './settings.ts';
export { allocateSerials, ensureStock, takeStock } from './stock.ts';
export { syncReleaseRoyalty } from './sync-release-royalty.ts';
export { importWhitelist } from './whitelist.ts';
