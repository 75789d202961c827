/** The public face of modules/bids: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { bidRoutes } from './routes.ts';
