/**
 * Sale times of releases (pure, unit-tested): the live status of a release at a moment and what its
 * countdown counts to (the countdown itself: components/countdown).
 */
import type { ProjectStatus, SaleWindow } from './api/types.ts';

export interface SaleTimes {
  status: ProjectStatus;
  saleStartAt: number;
  saleEndAt: number | null;
  remaining: number;
}

/**
 * The status at `now`: the server's status moves on with the clock — upcoming becomes on sale at
 * the start, on sale becomes ended at the end; sold out and ended are final.
 */
export function liveStatus(p: SaleTimes, now: number): ProjectStatus {
  if (p.status === 'sold_out' || p.status === 'ended') return p.status;
  if (now < p.saleStartAt) return 'upcoming';
  if (p.remaining <= 0) return 'sold_out';
  if (p.saleEndAt !== null && now >= p.saleEndAt) return 'ended';
  return 'on_sale';
}

/** What the countdown counts to at `now`: the start while upcoming, the end while on sale (if it has one). */
export function countdownTarget(p: SaleTimes, now: number): { kind: 'start' | 'end'; at: number } | null {
  const status = liveStatus(p, now);
  if (status === 'upcoming') return { kind: 'start', at: p.saleStartAt };
  if (status === 'on_sale' && p.saleEndAt !== null) return { kind: 'end', at: p.saleEndAt };
  return null;
}

/**
 * The sale phase a badge names while a release is on sale: the last phase whose window holds `now`
 * (phases are in order and do not overlap; a window without a start is not open yet, one without an
 * end is open-ended). A lottery's rights window before the draw (no end yet) is `lottery_pending`.
 * Null without phases, outside every window, and in the public phase (发售中 says it).
 */
export type LivePhase = Exclude<SaleWindow['kind'], 'public'> | 'lottery_pending';
export function livePhase(phases: readonly SaleWindow[] | undefined, now: number): LivePhase | null {
  let open: SaleWindow | undefined;
  for (const w of phases ?? []) if (w.startAt !== null && w.startAt <= now && (w.endAt === null || now < w.endAt)) open = w;
  if (!open || open.kind === 'public') return null;
  if (open.kind === 'lottery_rights' && open.endAt === null) return 'lottery_pending';
  return open.kind;
}
