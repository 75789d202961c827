import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { ProjectDetail } from './types.ts';

/** POST /goods/v1/project/details {id} — one release with its sanitised description. Unknown id: 1404. */
export function getProject(call: Caller, id: string) {
  return call<ProjectDetail>(CatalogPaths.projectDetails, { id });
}
