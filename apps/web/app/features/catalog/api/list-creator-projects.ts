import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { Page, ProjectCard } from './types.ts';

/** POST /goods/v1/project/queryCreatorProjectAccountId — a creator's releases. */
export function listCreatorProjects(call: Caller, q: { accountId: string; pageNum: number; pageSize: number }) {
  return call<Page<ProjectCard>>(CatalogPaths.creatorProjects, { accountId: q.accountId, pageNum: q.pageNum, pageSize: q.pageSize, status: 'all' });
}
