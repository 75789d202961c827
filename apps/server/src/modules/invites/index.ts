/** The public face of modules/invites: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { inviteRoutes } from './routes.ts';
