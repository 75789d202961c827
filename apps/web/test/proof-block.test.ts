/**
 * The proof pages' live seed-block check (docs/drops.md "Checking the seed block"): the block read
 * through the server is compared with the published epoch and hash, and the in-browser recompute
 * starts from the chain's hash — so a published hash that is not the chain's makes the recompute
 * fail, not pass.
 */
import { describe, expect, it } from 'vitest';
import { drawLotteryWinners, lotteryEntriesHash, lotteryWinnersHash } from '@cfx/protocol/lottery-draw.ts';
import { checkSeedBlock, seedHashForRecompute } from '../app/components/chain-proof/block-check.ts';
import { recomputeProof } from '../app/features/drops/recompute.ts';
import type { ChainBlock } from '../app/components/chain-proof/chain-block.ts';
import { translate } from '../app/i18n/index.ts';
import { zh } from '../app/i18n/zh.ts';
import { en } from '../app/i18n/en.ts';

const HASH = `0x${'ab'.repeat(32)}`;
const OTHER = `0x${'cd'.repeat(32)}`;
const block = (over: Partial<ChainBlock> = {}): ChainBlock => ({
  epochNumber: 812,
  hash: HASH,
  parentHash: `0x${'01'.repeat(32)}`,
  height: 812,
  timestamp: 1_795_000_000,
  miner: 'CFX:TYPE.NULL:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA0SFBNJM2',
  confirmed: true,
  networkId: 1029,
  embedded: true,
  explorerUrl: null,
  ...over,
});
const ok = (data: ChainBlock) => ({ ok: true as const, data, status: '000000', code: '000000', message: 'ok' });

describe('checkSeedBlock', () => {
  it('matches the chain’s block at the published epoch, whatever the hex case', () => {
    expect(checkSeedBlock({ epoch: 812, blockHash: HASH.toUpperCase().replace('0X', '0x') }, ok(block()))).toEqual({ state: 'match', block: block() });
  });
  it('flags another hash or another epoch as a mismatch', () => {
    expect(checkSeedBlock({ epoch: 812, blockHash: OTHER }, ok(block())).state).toBe('mismatch');
    expect(checkSeedBlock({ epoch: 813, blockHash: HASH }, ok(block())).state).toBe('mismatch');
  });
  it('claims nothing without an answer: an envelope error (rate limit, no chain) or a malformed hash', () => {
    expect(checkSeedBlock({ epoch: 812, blockHash: HASH }, { ok: false, data: null, status: '1006', code: '1006', message: '区块查询过于频繁，请60秒后再试' })).toEqual({
      state: 'error',
      message: '区块查询过于频繁，请60秒后再试',
    });
    expect(checkSeedBlock({ epoch: 812, blockHash: HASH }, ok(block({ hash: '0x12' }))).state).toBe('error');
  });
});

describe('the recompute starts from the chain’s hash', () => {
  const entries = Array.from({ length: 9 }, (_, i) => `13****${String(i).padStart(2, '0')}`);
  const winners = drawLotteryWinners(HASH, entries.length, 3);
  const proof = { blockHash: HASH, winnersCount: 3, entries, entriesHash: lotteryEntriesHash(entries), winners, winnersHash: lotteryWinnersHash(winners) };

  it('matches when the chain has the published hash', async () => {
    const check = checkSeedBlock({ epoch: 812, blockHash: HASH }, ok(block()));
    expect(await recomputeProof({ ...proof, blockHash: seedHashForRecompute(proof.blockHash, check) })).toMatchObject({ ok: true });
  });
  it('fails when the published hash is not the chain’s (even though it recomputes on its own)', async () => {
    const check = checkSeedBlock({ epoch: 812, blockHash: HASH }, ok(block({ hash: OTHER })));
    expect(check.state).toBe('mismatch');
    expect(await recomputeProof(proof)).toMatchObject({ ok: true });
    expect(await recomputeProof({ ...proof, blockHash: seedHashForRecompute(proof.blockHash, check) })).toMatchObject({ ok: false, winnersOk: false });
  });
  it('falls back to the published hash while the block could not be read', () => {
    expect(seedHashForRecompute(HASH, { state: 'error', message: 'x' })).toBe(HASH);
    expect(seedHashForRecompute(HASH, { state: 'loading' })).toBe(HASH);
  });
});

describe('catalog', () => {
  it('has the block check’s texts in both languages', () => {
    for (const key of ['title', 'loading', 'match', 'mismatch', 'error', 'retry', 'meta', 'confirmed', 'unconfirmed', 'viewOnExplorer', 'embeddedNote', 'recomputeFromChain']) {
      expect(translate(zh, `proofBlock.${key}`), key).not.toBe(`proofBlock.${key}`);
      expect(translate(en, `proofBlock.${key}`), key).not.toBe(`proofBlock.${key}`);
    }
    expect(translate(zh, 'proofBlock.match', { epoch: 812 })).toBe('一致：链上第 812 个纪元的区块哈希与抽取所用的哈希相同');
  });
});
