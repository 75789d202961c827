/** The public face of modules/payout: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { bankLogoUrl } from './bank-logo.ts';
export { getBoundCard } from './cards.ts';
export { findRealname } from './realname.ts';
export { bankLogoRoutes, payoutNotifyRoutes, payoutRoutes, startPayouts } from './routes.ts';
export { notifyUrl, payoutRuntime, unavailable } from './runtime.ts';
export { applyRefundOutcome, strayRefundJob } from './stray-refunds.ts';
export { findWithdrawal, submitWithdrawal } from './withdraw.ts';
export { cardNotifyUrl, cardPayAvailable, cardRefunder, requireQuickPay } from './card-pay-provider.ts';
export { createNotifier } from './notify-delivery.ts';
export type { Notifier } from './notify-delivery.ts';
