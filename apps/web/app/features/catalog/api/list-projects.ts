import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { Page, ProjectCard, ProjectFilter } from './types.ts';

/** POST /goods/v1/project/index — releases, one status or all, default order (on sale, upcoming, then the rest). */
export function listProjects(call: Caller, q: { pageNum: number; pageSize: number; status?: ProjectFilter }) {
  return call<Page<ProjectCard>>(CatalogPaths.projectIndex, { pageNum: q.pageNum, pageSize: q.pageSize, status: q.status ?? 'all' });
}
