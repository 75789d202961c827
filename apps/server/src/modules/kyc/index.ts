/** The public face of modules/kyc: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { checkDigit, maskIdNumber, maskName } from './id-number.ts';
export { requireTrader, requireTraderUserId, warmTraders } from './require-trader.ts';
export { kycRoutes } from './routes.ts';
