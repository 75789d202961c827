/** The public face of modules/orders: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { closeUnpaidOrder, expireDueOrders } from './close-order.ts';
export { chinaDayStart, insertOrder } from './create-order.ts';
export { orderDetailOf, orderQuery, toOrderCard } from './order-view.ts';
export type { OrderRow } from './order-view.ts';
export { orderRoutes } from './routes.ts';
export type { DropOrders } from './routes.ts';
export { completionBatcher, refundOrder, runSettleJob, settleJob, settleRequestOf, settlingBatcher } from './settle-order.ts';
export { moveOrder, noteOrder } from './transitions.ts';
export { buyerOrder } from './buyer-order.ts';
export { attachOrderHooks } from './order-hooks.ts';
export type { ClosableOrder, OrderHooks } from './order-hooks.ts';
