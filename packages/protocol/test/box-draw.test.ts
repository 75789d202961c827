import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BOX_DRAW_ALGORITHM,
  boxAssignmentHash,
  boxCommitment,
  boxDrawSeed,
  checkBoxCommitment,
  drawBoxAssignment,
  verifyBoxProof,
} from '../src/box-draw.ts';

const SEED = '6b1d4f0c1a9e2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081920a1b';
const BLOCK = '0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

/**
 * The documented algorithm written again from its description with node:crypto (independent of
 * @noble/hashes and of the implementation's code), so the doc, this and box-draw.ts must agree.
 */
function reference(counts: number[], serverSeed: string, blockHash: string): number[] {
  const seed = crypto.createHash('sha256').update(Buffer.concat([Buffer.from(serverSeed, 'hex'), Buffer.from(blockHash.replace(/^0x/, ''), 'hex')])).digest();
  const words: number[] = [];
  let counter = 0n;
  const next = () => {
    if (words.length === 0) {
      const c = Buffer.alloc(8);
      c.writeBigUInt64BE(counter++);
      const block = crypto.createHash('sha256').update(Buffer.concat([seed, c])).digest();
      for (let i = 0; i < 32; i += 4) words.push(block.readUInt32BE(i));
    }
    return words.shift()!;
  };
  const deck = counts.flatMap((c, k) => Array<number>(c).fill(k));
  for (let i = deck.length - 1; i >= 1; i--) {
    const m = i + 1;
    const limit = Math.floor(2 ** 32 / m) * m;
    let w = next();
    while (w >= limit) w = next();
    const j = w % m;
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck;
}

describe('blind-box draw (box-shuffle-v1)', () => {
  it('commits to the seed with sha256 of its bytes', () => {
    expect(BOX_DRAW_ALGORITHM).toBe('box-shuffle-v1');
    const h = boxCommitment(SEED);
    expect(h).toBe(crypto.createHash('sha256').update(Buffer.from(SEED, 'hex')).digest('hex'));
    expect(checkBoxCommitment(SEED, h)).toBe(true);
    expect(checkBoxCommitment(SEED, `0x${h.toUpperCase()}`)).toBe(true);
    expect(checkBoxCommitment(SEED.replace(/^6/, '7'), h)).toBe(false);
    expect(checkBoxCommitment('not hex', h)).toBe(false);
    expect(boxDrawSeed(SEED, BLOCK)).toBe(crypto.createHash('sha256').update(Buffer.from(SEED + BLOCK.slice(2), 'hex')).digest('hex'));
  });

  it('is exact: the assignment is the published multiset, shuffled', () => {
    const a = drawBoxAssignment([1, 9, 90], SEED, BLOCK);
    expect(a).toHaveLength(100);
    expect(a.filter((k) => k === 0)).toHaveLength(1);
    expect(a.filter((k) => k === 1)).toHaveLength(9);
    expect(a.filter((k) => k === 2)).toHaveLength(90);
    // Shuffled, not left in deck order.
    expect(a.slice(0, 10)).not.toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('equals an independent implementation of the documented algorithm', () => {
    for (const counts of [[1, 9, 90], [3, 0, 2], [1], [500, 499, 1]]) {
      expect(drawBoxAssignment(counts, SEED, BLOCK)).toEqual(reference(counts, SEED, BLOCK));
    }
  });

  it('matches the published test vector', () => {
    const a = drawBoxAssignment([1, 9, 90], SEED, BLOCK);
    // Test vector (docs/drops.md "Blind boxes"): anyone's implementation must give these.
    expect(a.indexOf(0) + 1).toBe(VECTOR.hiddenSerial);
    expect(a.slice(0, 12).join(',')).toBe(VECTOR.first12);
    expect(boxAssignmentHash(a)).toBe(VECTOR.hash);
  });

  it('depends on both the seed and the block hash', () => {
    const base = boxAssignmentHash(drawBoxAssignment([1, 9, 90], SEED, BLOCK));
    expect(boxAssignmentHash(drawBoxAssignment([1, 9, 90], SEED.replace(/b$/, 'c'), BLOCK))).not.toBe(base);
    expect(boxAssignmentHash(drawBoxAssignment([1, 9, 90], SEED, BLOCK.replace(/8$/, '9')))).not.toBe(base);
  });

  it('spreads the kinds evenly over many draws (no modulo or position bias)', () => {
    // Where the single hidden item of a 10-box release lands, over 4,000 seeds: each serial ≈ 400.
    const hits = Array<number>(10).fill(0);
    for (let i = 0; i < 4000; i++) {
      const seed = crypto.createHash('sha256').update(`seed ${i}`).digest('hex');
      hits[drawBoxAssignment([1, 9], seed, BLOCK).indexOf(0)]!++;
    }
    for (const h of hits) expect(h).toBeGreaterThan(320);
    for (const h of hits) expect(h).toBeLessThan(480);
  });

  it('verifies a published proof and refuses a forged one', () => {
    const a = drawBoxAssignment([2, 3], SEED, BLOCK);
    const proof = { counts: [2, 3], commitment: boxCommitment(SEED), serverSeed: SEED, blockHash: BLOCK, assignmentHash: boxAssignmentHash(a) };
    expect(verifyBoxProof(proof)).toEqual({ commitmentOk: true, assignmentOk: true, assignment: a });
    expect(verifyBoxProof({ ...proof, counts: [3, 2] }).assignmentOk).toBe(false);
    expect(verifyBoxProof({ ...proof, commitment: boxCommitment(BLOCK) }).commitmentOk).toBe(false);
    expect(verifyBoxProof({ ...proof, blockHash: 'zz' })).toEqual({ commitmentOk: true, assignmentOk: false, assignment: null });
  });

  it('validates inputs', () => {
    expect(() => drawBoxAssignment([], SEED, BLOCK)).toThrow(/non-empty/);
    expect(() => drawBoxAssignment([0, 0], SEED, BLOCK)).toThrow(/sum/);
    expect(() => drawBoxAssignment([1.5], SEED, BLOCK)).toThrow(/whole number/);
    expect(() => drawBoxAssignment([1], 'abc', BLOCK)).toThrow(/serverSeed/);
  });
});

const VECTOR = { hiddenSerial: 90, first12: '2,2,2,2,2,2,2,2,1,2,2,2', hash: '2449930132711f7eb25081eba33972ec168e74b11592350ca2de0987541c7c8a' };
