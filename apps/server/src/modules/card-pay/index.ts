/** The public face of modules/card-pay: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { cardPayNotifyRoutes, cardPayRoutes, startCardPayJobs } from './routes.ts';
