/**
 * Sale phases in the browser (pure, unit-tested): which phase is open at a moment by the page's
 * server clock, what the phase countdown counts to, and whether a phase sells. The server gives the
 * effective windows (GET /official/mint/, mintinfo); these only move them on with the clock.
 */
import type { DropPhaseKind, PhaseView } from './api/types.ts';

export type LivePhaseState = PhaseView['state'];

/** The state of a phase at `now` (pending = its start is not known yet: a rights phase before the draw). */
export function livePhaseState(p: Pick<PhaseView, 'startAt' | 'endAt'>, now: number): LivePhaseState {
  if (p.startAt === null) return 'pending';
  if (p.endAt !== null && (now >= p.endAt || p.endAt <= p.startAt)) return 'ended';
  return now < p.startAt ? 'upcoming' : 'active';
}

/** The phase open at `now`, or null. */
export function livePhase<P extends Pick<PhaseView, 'startAt' | 'endAt'>>(phases: readonly P[], now: number): P | null {
  return phases.find((p) => livePhaseState(p, now) === 'active') ?? null;
}

/** What the phase countdown counts to: the end of the open phase, else the start of the next known one. */
export function phaseTarget<P extends Pick<PhaseView, 'startAt' | 'endAt'>>(phases: readonly P[], now: number): { kind: 'end' | 'start'; at: number; phase: P } | null {
  const cur = livePhase(phases, now);
  if (cur) return cur.endAt !== null ? { kind: 'end', at: cur.endAt, phase: cur } : null;
  const next = phases.find((p) => p.startAt !== null && p.startAt > now);
  return next ? { kind: 'start', at: next.startAt!, phase: next } : null;
}

/** Phases in which units are bought through createOrder (the claim is nftmint; sign-up buys nothing). */
export function sellsInPhase(kind: DropPhaseKind): boolean {
  return kind === 'whitelist' || kind === 'lottery_rights' || kind === 'public';
}

/** A key that changes whenever the open phase changes (to refetch the server's view at that moment). */
export function phaseKey(phases: readonly Pick<PhaseView, 'startAt' | 'endAt' | 'seq'>[], now: number): string {
  return phases.map((p) => `${p.seq}:${livePhaseState(p, now)}`).join(',');
}
