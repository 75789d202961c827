/** The public face of modules/privacy: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { registerAccountJobs } from './anonymise-account.ts';
export { privacyRoutes } from './routes.ts';
