/** The public face of modules/shift: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { expireTransfers, onIndexedTransfers } from './apply-transfer.ts';
export { shiftRoutes } from './routes.ts';
