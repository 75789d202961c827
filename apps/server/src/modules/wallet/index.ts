/** The public face of modules/wallet: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { walletRoutes } from './routes.ts';
