import { StudioPaths, type DraftInput, type ReleaseDraft, type StudioStats } from '@cfx/contract/studio.ts';
import type { Page } from '@cfx/contract/admin.ts';
import { api } from '../../lib/api.ts';
import { uploadMultipart } from '../../lib/upload.ts';
import { CREATOR_PATHS } from '../../lib/creator-api/paths.ts';
import type { CreatorUpload } from '@cfx/contract/creators.ts';

/** The creator studio's calls (docs/api.md "Creator studio"); a refusal shows the server's message (lib/api.ts). */
export const listDrafts = (signal?: AbortSignal) => api<Page<ReleaseDraft>>(StudioPaths.drafts, { pageNum: 1, pageSize: 50 }, { silent: true, signal });
export const studioStats = (signal?: AbortSignal) => api<StudioStats>(StudioPaths.stats, {}, { silent: true, signal });
export const createDraft = (body: DraftInput) => api<ReleaseDraft>(StudioPaths.create, body);
export const updateDraft = (id: number, body: DraftInput) => api<ReleaseDraft>(StudioPaths.update, { id, ...body });
export const submitDraft = (id: number) => api<ReleaseDraft>(StudioPaths.submit, { id });
export const withdrawDraft = (id: number) => api<ReleaseDraft>(StudioPaths.withdraw, { id });

/** The artwork's video (MP4, WebM) or 3D model (GLB) through the creator upload call's media policy (`?kind=media`). */
export function uploadStudioMedia(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return uploadMultipart<CreatorUpload>(`${CREATOR_PATHS.upload}?kind=media`, file, onProgress, signal);
}

/** A release artwork's kind by its file name: a GLB is a 3D model, anything else accepted a video. */
export const mediaKindOfFile = (name: string): 'video' | 'model' => (/\.glb$/i.test(name) ? 'model' : 'video');
