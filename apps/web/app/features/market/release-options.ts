/**
 * The market's release filter: the releases of the findAll call grouped by sale status (on sale
 * first, as a buyer looks for them), newest first inside a group. Pure, unit-tested.
 */
import type { ProjectOption } from './api/types.ts';

export type ReleaseStatus = ProjectOption['status'];
export const RELEASE_GROUP_ORDER: readonly ReleaseStatus[] = ['on_sale', 'upcoming', 'sold_out', 'ended'];

export interface ReleaseChoice {
  id: number;
  name: string;
}
export interface ReleaseGroup {
  /** null: one plain list (findAll did not answer; the filter meta's names). */
  status: ReleaseStatus | null;
  options: ReleaseChoice[];
}

/**
 * `all` is findAll's answer (null when the call failed); `fallback` the filter meta's `projects`.
 * The selected release stays a choice even when neither list has it (a stale link), named by
 * `selected.name` when the page knows it, so the select never silently shows "all releases".
 */
export function releaseOptionGroups(all: readonly ProjectOption[] | null, fallback: readonly ReleaseChoice[], selected?: { id: number; name?: string }): ReleaseGroup[] {
  let groups: ReleaseGroup[];
  if (all) {
    groups = RELEASE_GROUP_ORDER.map((status) => ({
      status,
      options: all.filter((p) => p.status === status).map((p) => ({ id: p.id, name: p.name })),
    })).filter((g) => g.options.length > 0);
  } else {
    groups = fallback.length ? [{ status: null, options: fallback.map((p) => ({ id: p.id, name: p.name })) }] : [];
  }
  if (selected && !groups.some((g) => g.options.some((o) => o.id === selected.id))) {
    groups.unshift({ status: null, options: [{ id: selected.id, name: selected.name || `#${selected.id}` }] });
  }
  return groups;
}
