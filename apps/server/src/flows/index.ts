/** Work that ties several modules together (docs/architecture.md, "Module map"): the app calls these at start-up. */
export { attachOrderSettlement } from './settle-orders.ts';
export { startGoodsFlows } from './goods-flows.ts';
export { joinOrders } from './join-orders.ts';
