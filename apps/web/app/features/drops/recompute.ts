/**
 * The proof page's "recompute in your browser" (docs/drops.md "Lottery"): the same implementation
 * the server drew with (packages/protocol/src/lottery-draw.ts), loaded on demand so the page's
 * bundle stays small. Pure apart from the dynamic import: unit-tested against the server's draw.
 */
import type { LotteryProof } from './api/types.ts';

export interface RecomputeResult {
  ok: boolean;
  entriesOk: boolean;
  winnersOk: boolean;
  winners: number[] | null;
  winnersHash: string | null;
}

export async function recomputeProof(p: Pick<LotteryProof, 'blockHash' | 'winnersCount' | 'entries' | 'entriesHash' | 'winners' | 'winnersHash'>): Promise<RecomputeResult> {
  const { verifyLotteryProof, lotteryWinnersHash } = await import('@cfx/protocol/lottery-draw.ts');
  if (!p.blockHash || !p.entriesHash || !p.winnersHash) return { ok: false, entriesOk: false, winnersOk: false, winners: null, winnersHash: null };
  const r = verifyLotteryProof({ blockHash: p.blockHash, winnersCount: p.winnersCount, entries: p.entries, entriesHash: p.entriesHash, winners: p.winners, winnersHash: p.winnersHash });
  return { ok: r.entriesOk && r.winnersOk, entriesOk: r.entriesOk, winnersOk: r.winnersOk, winners: r.winners, winnersHash: r.winners ? lotteryWinnersHash(r.winners) : null };
}
