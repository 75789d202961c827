/** The public face of modules/uploads: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { IMAGE_POLICY, imageOrMediaPolicy } from './policies.ts';
export type { UploadPolicy } from './policies.ts';
export { mediaUploadRoutes, uploadRoutes } from './routes.ts';
export { filePart, saveUpload, uploadUrl } from './save-upload.ts';
export type { IncomingFile } from './save-upload.ts';
export { sniff } from './sniff.ts';
