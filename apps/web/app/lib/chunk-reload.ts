import { LIMITS } from '@cfx/contract/limits.ts';
import { STORAGE } from '../config.ts';
import { readStorage, writeStorage } from './storage.ts';

const CHUNK_ERROR_RE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading (CSS )?chunk [\w-]+ failed/i;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : typeof error === 'string' ? error : '';
  return CHUNK_ERROR_RE.test(message);
}

/**
 * A failed chunk load (usually a new deployment) reloads the page, at most once a minute
 * (guard timestamp in sessionStorage). Returns true when a reload was started.
 */
export function reloadForChunkError(): boolean {
  if (typeof window === 'undefined') return false;
  const last = Number(readStorage(STORAGE.chunkReloadAt, 'session') ?? 0);
  const now = Date.now();
  if (now - last < LIMITS.chunkReloadGuardMs) return false;
  writeStorage(STORAGE.chunkReloadAt, String(now), 'session');
  window.location.reload();
  return true;
}
