/** The public face of modules/search: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { searchRoutes } from './routes.ts';
export { invalidateSearchIndex } from './search-index.ts';
