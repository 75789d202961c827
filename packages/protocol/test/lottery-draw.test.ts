import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  LOTTERY_DRAW_ALGORITHM,
  drawLotteryWinners,
  lotteryEntriesHash,
  lotteryKey,
  lotteryWinnersHash,
  maskAccountId,
  verifyLotteryProof,
} from '../src/lottery-draw.ts';

const BLOCK = '0x5c1a4e0f8b2d3c4a5b6c7d8e9f00112233445566778899aabbccddeeff001122';
const ENTRIES = Array.from({ length: 12 }, (_, i) => `10****${String(i).padStart(2, '0')}`);

/**
 * The documented algorithm written again from its description with node:crypto (independent of
 * @noble/hashes and of the implementation's code): the doc, this and lottery-draw.ts must agree.
 */
function reference(blockHash: string, n: number, w: number): number[] {
  const seed = Buffer.from(blockHash.replace(/^0x/, ''), 'hex');
  const keys = [];
  for (let i = 1; i <= n; i++) {
    const c = Buffer.alloc(8);
    c.writeBigUInt64BE(BigInt(i));
    keys.push({ i, k: crypto.createHash('sha256').update(Buffer.concat([seed, c])).digest('hex') });
  }
  keys.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i));
  return keys.slice(0, w).map((x) => x.i).sort((a, b) => a - b);
}
const sha = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

describe(LOTTERY_DRAW_ALGORITHM, () => {
  it('matches the published test vector (docs/drops.md "Lottery")', () => {
    expect(lotteryKey(BLOCK, 1)).toBe('8061a09cea835132353801c8a0664eb17d961831b57701ab5a448f6d5321045e');
    const winners = drawLotteryWinners(BLOCK, 12, 4);
    expect(winners).toEqual([4, 7, 8, 12]);
    expect(lotteryWinnersHash(winners)).toBe('e87c11d8de6c173f70cbe35433abe7dcd752c74a5543499d7b3c371b0f3f9af7');
    expect(lotteryEntriesHash(ENTRIES)).toBe('83cdf1a19b0fb025a9d5ad41a6e18471cc3602f04319c21a4b96056106039e33');
  });

  it('agrees with an independent node:crypto implementation of the description', () => {
    for (let round = 0; round < 30; round++) {
      const block = `0x${crypto.randomBytes(32).toString('hex')}`;
      const n = crypto.randomInt(0, 400);
      const w = crypto.randomInt(0, 60);
      expect(drawLotteryWinners(block, n, w)).toEqual(reference(block, n, w));
    }
    expect(lotteryWinnersHash([3, 9, 27])).toBe(sha('3,9,27'));
    expect(lotteryEntriesHash(['ab', 'cd'])).toBe(sha('1,ab\n2,cd'));
  });

  it('everyone wins when there are no more entries than winners; nobody without entries', () => {
    expect(drawLotteryWinners(BLOCK, 3, 5)).toEqual([1, 2, 3]);
    expect(drawLotteryWinners(BLOCK, 0, 5)).toEqual([]);
    expect(drawLotteryWinners(BLOCK, 5, 0)).toEqual([]);
  });

  it('depends on the seed: another block hash draws other winners (with overwhelming probability)', () => {
    const other = `0x${'11'.repeat(32)}`;
    expect(drawLotteryWinners(other, 200, 10)).not.toEqual(drawLotteryWinners(BLOCK, 200, 10));
    expect(drawLotteryWinners(BLOCK.toUpperCase().replace('0X', '0x'), 200, 10)).toEqual(drawLotteryWinners(BLOCK, 200, 10));
  });

  it('refuses malformed input', () => {
    expect(() => drawLotteryWinners('0x1234', 10, 2)).toThrow(TypeError);
    expect(() => drawLotteryWinners(BLOCK, -1, 2)).toThrow(RangeError);
    expect(() => drawLotteryWinners(BLOCK, 10, 1.5)).toThrow(RangeError);
  });

  it('verifies a proof and notices any change to the entries, the winners or the seed', () => {
    const winners = drawLotteryWinners(BLOCK, ENTRIES.length, 4);
    const proof = { blockHash: BLOCK, winnersCount: 4, entries: ENTRIES, entriesHash: lotteryEntriesHash(ENTRIES), winners, winnersHash: lotteryWinnersHash(winners) };
    expect(verifyLotteryProof(proof)).toEqual({ entriesOk: true, winnersOk: true, winners });
    expect(verifyLotteryProof({ ...proof, entries: [...ENTRIES, '99****99'] }).entriesOk).toBe(false);
    expect(verifyLotteryProof({ ...proof, winners: [1, 2, 3, 4] }).winnersOk).toBe(false);
    expect(verifyLotteryProof({ ...proof, blockHash: `0x${'22'.repeat(32)}` }).winnersOk).toBe(false);
    expect(verifyLotteryProof({ ...proof, blockHash: 'nope' })).toMatchObject({ winnersOk: false, winners: null });
  });

  it('masks account ids keeping two characters at each end', () => {
    expect(maskAccountId('1234567890')).toBe('12******90');
    expect(maskAccountId('123456')).toBe('12****56');
    expect(maskAccountId('123')).toBe('***');
  });
});
