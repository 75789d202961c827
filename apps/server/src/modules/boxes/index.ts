/** The public face of modules/boxes: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { loadBoxRelease, revealDueBoxes } from './box-release.ts';
export { configureBoxRelease } from './configure-box.ts';
export { runBoxJob } from './open-box.ts';
export { boxRoutes } from './routes.ts';
