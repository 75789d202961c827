/** The public face of modules/chain: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { blockExplorerUrl } from './block-explorer.ts';
export { chainRoutes } from './routes.ts';
