/** The public face of modules/poster: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { posterRoutes } from './routes.ts';
