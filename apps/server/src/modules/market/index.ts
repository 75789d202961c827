/** The public face of modules/market: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { computeFees, royaltyPermilleOf } from './fees.ts';
export { invalidateListing } from './invalidate-listing.ts';
export { openSale } from './open-sale.ts';
export { preOpenSale } from './pre-open-sale.ts';
export { beijingDate, checkPrice, checkSellable, historyAction, historyActions, liveListing, loadGoods, lockListable, newId, notFound, requireSettlement, setGoodsListed } from './repo.ts';
export { marketRoutes } from './routes.ts';
export type { MarketRuntime } from './runtime.ts';
export { FILLED_REVERTS } from './settlement-chain.ts';
export type { CheckResult, SettleRequest, TokenEvent, TxOutcome } from './settlement-chain.ts';
export { startMarket } from './start-market.ts';
export { verifySignedDraft } from './verify-listing.ts';
export { resyncGoodsOwner } from './watch-chain.ts';
export { attachMarketHooks } from './market-hooks.ts';
export type { MarketHooks } from './market-hooks.ts';
