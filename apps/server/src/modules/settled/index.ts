/** The public face of modules/settled: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { applicationViews } from './application-view.ts';
export { reviewApplication } from './review-application.ts';
export { settledRoutes } from './routes.ts';
