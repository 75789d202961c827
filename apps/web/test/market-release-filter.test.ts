/** The market's release filter (findAll grouped by sale status) — pure. */
import { describe, expect, it } from 'vitest';
import { releaseOptionGroups } from '../app/features/market/release-options.ts';
import type { ProjectOption } from '../app/features/market/api/types.ts';

const opt = (id: number, status: ProjectOption['status']): ProjectOption => ({ id, name: `R${id}`, cover: '', category: 'art', status });

describe('release filter groups', () => {
  it('groups by status, on sale first, keeping findAll’s newest-first order and dropping empty groups', () => {
    const all = [opt(9, 'ended'), opt(8, 'upcoming'), opt(7, 'on_sale'), opt(6, 'sold_out'), opt(5, 'on_sale'), opt(4, 'upcoming')];
    expect(releaseOptionGroups(all, [])).toEqual([
      { status: 'on_sale', options: [{ id: 7, name: 'R7' }, { id: 5, name: 'R5' }] },
      { status: 'upcoming', options: [{ id: 8, name: 'R8' }, { id: 4, name: 'R4' }] },
      { status: 'sold_out', options: [{ id: 6, name: 'R6' }] },
      { status: 'ended', options: [{ id: 9, name: 'R9' }] },
    ]);
    expect(releaseOptionGroups([opt(1, 'ended')], []).map((g) => g.status)).toEqual(['ended']);
  });

  it('falls back to the filter meta’s plain list when findAll failed; nothing at all is no groups', () => {
    expect(releaseOptionGroups(null, [{ id: 3, name: '甲' }, { id: 2, name: '乙' }])).toEqual([{ status: null, options: [{ id: 3, name: '甲' }, { id: 2, name: '乙' }] }]);
    expect(releaseOptionGroups(null, [])).toEqual([]);
    expect(releaseOptionGroups([], [{ id: 3, name: '甲' }])).toEqual([]);
  });

  it('keeps a selected release that no list has (a stale link) as the first choice, named when known', () => {
    const all = [opt(7, 'on_sale')];
    expect(releaseOptionGroups(all, [], { id: 7 })).toHaveLength(1);
    expect(releaseOptionGroups(all, [], { id: 42, name: '旧系列' })[0]).toEqual({ status: null, options: [{ id: 42, name: '旧系列' }] });
    expect(releaseOptionGroups(null, [], { id: 42 })).toEqual([{ status: null, options: [{ id: 42, name: '#42' }] }]);
  });
});
