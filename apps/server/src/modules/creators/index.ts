/** The public face of modules/creators: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { checkCreatorText } from './check-creator-text.ts';
export { onboardCreator } from './onboard-creator.ts';
export { requireOwnCreator } from './own-creator.ts';
export { ownedImages } from './owned-images.ts';
export { creatorRoutes } from './routes.ts';
