/** The public face of modules/demo: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { seedDemoIfEmpty } from './seed-demo.ts';
