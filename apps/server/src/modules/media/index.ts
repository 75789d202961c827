/** The public face of modules/media: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { mediaRoutes } from './avatars.ts';
export { RENDITION_MAX_WAITING, RENDITION_TYPES, encodePicture, encodePixels, loadSharp, parseRendition, renditionCache, withRenderSlot } from './renditions.ts';
export type { RenditionFormat, Sharp } from './renditions.ts';
