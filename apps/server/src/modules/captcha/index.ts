/** The public face of modules/captcha: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { captchaRoutes } from './routes.ts';
