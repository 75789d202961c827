/** The public face of modules/ledger: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { Account, balanceOf, postTxn, postTxns } from './ledger.ts';
export { ledgerRoutes } from './routes.ts';
