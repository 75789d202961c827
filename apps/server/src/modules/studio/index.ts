/** The public face of modules/studio: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { studioAdminRoutes } from './admin-routes.ts';
export { studioRoutes } from './routes.ts';
