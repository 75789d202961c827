import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { HistoryAction, Page } from './types.ts';

/** GET /goods/v1/list/historyAction/?id=&pageNum=&pageSize= — mint, list, delist, sale, transfer; newest first. */
export function listHistoryActions(call: Caller, q: { id: string | number; pageNum: number; pageSize: number }, signal?: AbortSignal) {
  return call<Page<HistoryAction>>(CatalogPaths.historyAction, undefined, {
    method: 'GET',
    query: { id: q.id, pageNum: q.pageNum, pageSize: q.pageSize },
    silent: true,
    signal,
  });
}
