/** The public face of modules/dev: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { devRoutes } from './routes.ts';
