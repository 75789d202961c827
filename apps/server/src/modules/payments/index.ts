/** The public face of modules/payments: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { applyProviderPayment } from './apply-payment.ts';
export type { ApplyOutcome } from './apply-payment.ts';
export { availableMethods } from './pay-order.ts';
export { reconcilePayments } from './reconcile-payments.ts';
export { paymentNotifyRoutes, paymentRoutes } from './routes.ts';
