/**
 * Pure parts of the sale-phase and lottery pages (docs/drops.md "Sale phases", "Lottery"): the proof
 * page's in-browser recompute uses the server's own draw (packages/protocol/src/lottery-draw.ts) and
 * agrees with the published test vector; the phase timeline moves on with the server clock.
 */
import { describe, expect, it } from 'vitest';
import { drawLotteryWinners, lotteryEntriesHash, lotteryWinnersHash } from '@cfx/protocol/lottery-draw.ts';
import { recomputeProof } from '../app/features/drops/recompute.ts';
import { livePhase, livePhaseState, phaseKey, phaseTarget, sellsInPhase } from '../app/features/drops/phases.ts';
import { translate } from '../app/i18n/index.ts';
import { zh } from '../app/i18n/zh.ts';
import { en } from '../app/i18n/en.ts';

// The test vector of docs/drops.md "Lottery" (also packages/protocol/test/lottery-draw.test.ts).
const VECTOR = {
  blockHash: '0x5c1a4e0f8b2d3c4a5b6c7d8e9f00112233445566778899aabbccddeeff001122',
  winnersCount: 4,
  entries: Array.from({ length: 12 }, (_, i) => `10****${String(i).padStart(2, '0')}`),
  entriesHash: '83cdf1a19b0fb025a9d5ad41a6e18471cc3602f04319c21a4b96056106039e33',
  winners: [4, 7, 8, 12],
  winnersHash: 'e87c11d8de6c173f70cbe35433abe7dcd752c74a5543499d7b3c371b0f3f9af7',
};

describe('recompute in the browser', () => {
  it('matches the published test vector', async () => {
    expect(await recomputeProof(VECTOR)).toEqual({ ok: true, entriesOk: true, winnersOk: true, winners: [4, 7, 8, 12], winnersHash: VECTOR.winnersHash });
  });

  it('agrees with the server draw for any seed and list (same implementation)', async () => {
    for (let round = 0; round < 10; round++) {
      const blockHash = `0x${Array.from({ length: 32 }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join('')}`;
      const entries = Array.from({ length: 1 + Math.floor(Math.random() * 80) }, (_, i) => `1${i}****9`);
      const winnersCount = 1 + Math.floor(Math.random() * 10);
      const winners = drawLotteryWinners(blockHash, entries.length, winnersCount);
      const r = await recomputeProof({ blockHash, winnersCount, entries, entriesHash: lotteryEntriesHash(entries), winners, winnersHash: lotteryWinnersHash(winners) });
      expect(r.ok).toBe(true);
      expect(r.winners).toEqual(winners);
    }
  });

  it('says so when a published list was changed', async () => {
    expect(await recomputeProof({ ...VECTOR, winners: [1, 7, 8, 12] })).toMatchObject({ ok: false, entriesOk: true, winnersOk: false, winners: [4, 7, 8, 12] });
    expect(await recomputeProof({ ...VECTOR, entries: [...VECTOR.entries.slice(0, 11), '99****99'] })).toMatchObject({ ok: false, entriesOk: false });
    expect(await recomputeProof({ ...VECTOR, blockHash: null })).toMatchObject({ ok: false, winners: null });
  });
});

describe('phases by the server clock', () => {
  const phases = [
    { seq: 0, kind: 'lottery_signup' as const, startAt: 1000, endAt: 2000 },
    { seq: 1, kind: 'lottery_rights' as const, startAt: null, endAt: null },
    { seq: 2, kind: 'public' as const, startAt: null, endAt: null },
  ];
  it('knows the open phase and what the countdown counts to', () => {
    expect(livePhase(phases, 999)).toBeNull();
    expect(phaseTarget(phases, 999)).toMatchObject({ kind: 'start', at: 1000, phase: { kind: 'lottery_signup' } });
    expect(livePhase(phases, 1000)?.kind).toBe('lottery_signup');
    expect(phaseTarget(phases, 1500)).toMatchObject({ kind: 'end', at: 2000 });
    expect(livePhase(phases, 2000)).toBeNull();
    expect(phaseTarget(phases, 2500)).toBeNull(); // waiting for the draw: nothing known to count to
    expect(livePhaseState(phases[1]!, 2500)).toBe('pending');
    expect(phaseKey(phases, 1999)).not.toBe(phaseKey(phases, 2000));
    const drawn = [phases[0]!, { ...phases[1]!, startAt: 3000, endAt: 9000 }, { ...phases[2]!, startAt: 9000 }];
    expect(livePhase(drawn, 3000)?.kind).toBe('lottery_rights');
    expect(phaseTarget(drawn, 3000)).toMatchObject({ kind: 'end', at: 9000 });
    expect(livePhase(drawn, 9000)?.kind).toBe('public');
    expect(phaseTarget(drawn, 9000)).toBeNull(); // open-ended
  });
  it('sells in whitelist, rights and public phases only', () => {
    expect(['whitelist', 'claim', 'lottery_signup', 'lottery_rights', 'public'].filter((k) => sellsInPhase(k as never))).toEqual(['whitelist', 'lottery_rights', 'public']);
  });
  it('has the phase texts in both languages', () => {
    expect(translate(zh, 'phases.kinds.lottery_rights')).toBe('中签优先购');
    expect(translate(en, 'phases.kinds.claim')).toBe('Whitelist free claim');
    expect(translate(zh, 'phases.lottery.lost', { n: 3 })).toBe('很遗憾，您的报名号 3 未中签');
    expect(translate(zh, 'phases.proof.matches')).toBe('复算结果一致：中签名单与公示完全相同');
  });
});
