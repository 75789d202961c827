/** The public face of modules/admin: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { adminRoute } from './admin-route.ts';
export { writeAudit } from './audit.ts';
export { adminRoutes } from './routes.ts';
export { hashedOneTimePassword, insertStaff, normaliseUsername } from './staff-accounts.ts';
export { resetPassword, resetTotp } from './staff-manage.ts';
export type { AdminPlugins } from './routes.ts';
