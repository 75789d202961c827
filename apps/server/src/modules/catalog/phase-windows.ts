import type { SaleWindow } from '@cfx/contract/catalog.ts';
import type { AppContext } from '../../context.ts';

/**
 * The sale phases of releases as their cards show them (docs/drops.md "Sale phases"): each phase's
 * kind and window in server time, so a page can name the phase open now (抽签报名中 rather than
 * 发售中) and follow it with its clock. A lottery's rights window starts when sign-up ends and ends
 * `rights_minutes` after the draw (null until drawn). Releases without phases get no entry.
 */
export async function saleWindowsOf(ctx: AppContext, ids: number[]): Promise<Map<number, SaleWindow[]>> {
  const out = new Map<number, SaleWindow[]>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const k = ctx.db.kysely;
  const phases = [];
  const lotteries = new Map<number, { drawnAt: number | null; rightsMs: number }>();
  for (let i = 0; i < unique.length; i += 500) {
    const part = unique.slice(i, i + 500);
    phases.push(...(await k.selectFrom('drop_phases').select(['project_id', 'seq', 'kind', 'start_at', 'end_at']).where('project_id', 'in', part).orderBy('project_id').orderBy('seq').execute()));
    for (const l of await k.selectFrom('drop_lotteries').select(['project_id', 'drawn_at', 'rights_minutes']).where('project_id', 'in', part).execute()) {
      lotteries.set(Number(l.project_id), { drawnAt: l.drawn_at === null ? null : Number(l.drawn_at), rightsMs: Number(l.rights_minutes) * 60_000 });
    }
  }
  for (const p of phases) {
    const id = Number(p.project_id);
    const list = out.get(id) ?? [];
    if (p.kind === 'lottery_rights') {
      const l = lotteries.get(id);
      list.push({ kind: p.kind, startAt: list[list.length - 1]?.endAt ?? null, endAt: l?.drawnAt != null ? l.drawnAt + l.rightsMs : null });
    } else {
      list.push({ kind: p.kind, startAt: p.start_at === null ? null : Number(p.start_at), endAt: p.end_at === null ? null : Number(p.end_at) });
    }
    out.set(id, list);
  }
  return out;
}
