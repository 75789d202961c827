// EIP-2981 on the Collectible, on a real @xcfx/node dev chain: the royalty of a release's
// token id range (setRangeRoyalty by the operator or owner), the owner's default for tokens
// outside every range, the 10 % cap and who may set it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { startTestChain, type TestChain } from './fixture.ts';

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain();
});

afterAll(async () => {
  await chain?.stop();
});

async function royaltyOf(tokenId: bigint, price: bigint): Promise<{ receiver: string; amount: bigint }> {
  const r = (await chain.collectible.royaltyInfo(tokenId, price)) as [string, bigint];
  return { receiver: toBase32Address(r[0]), amount: BigInt(r[1]) };
}

const ZERO = '0x0000000000000000000000000000000000000000';

describe('EIP-2981 royalties', () => {
  it('announces ERC-2981 (0x2a55205a) next to ERC-721 and ERC-165', async () => {
    expect(await chain.collectible.supportsInterface('0x2a55205a')).toBe(true);
    expect(await chain.collectible.supportsInterface('0x80ac58cd')).toBe(true);
    expect(await chain.collectible.supportsInterface('0x01ffc9a7')).toBe(true);
    expect(await chain.collectible.supportsInterface('0xffffffff')).toBe(false);
  });

  it('a release range answers its receiver and floor(price × bps / 10000); other tokens answer nothing', async () => {
    const { collectible, accounts } = chain;
    const creator = chain.freshAccount();
    // Tokens 1000..1099 (a release of 100), 5 % = 500 bps, set by the operator.
    const receipt = await chain.send(collectible.setRangeRoyalty(1000n, 1099n, creator.address, 500), accounts.operator);
    expect(chain.events(receipt).map((e) => e.name)).toContain('RangeRoyaltySet');
    await chain.send(collectible.mint(accounts.buyer.address, 1000n), accounts.operator);

    expect(await royaltyOf(1000n, 10_000n)).toEqual({ receiver: creator.address, amount: 500n });
    expect(await royaltyOf(1099n, 199n)).toEqual({ receiver: creator.address, amount: 9n }); // 9.95 → 9 (floor)
    // Outside the range (before, after): no default set → zero receiver, 0.
    for (const id of [999n, 1100n, 1n]) {
      const r = await royaltyOf(id, 10_000n);
      expect(r.amount).toBe(0n);
      expect(r.receiver).toBe(toBase32Address(ZERO));
    }
  });

  it('a range grows in place or changes its rate; a new range fits between others but never overlaps', async () => {
    const { collectible, accounts } = chain;
    const creator = chain.freshAccount();
    await chain.send(collectible.setRangeRoyalty(2000n, 2009n, creator.address, 300), accounts.operator);
    await chain.send(collectible.setRangeRoyalty(2000n, 2019n, creator.address, 250), accounts.operator);
    expect(await royaltyOf(2019n, 10_000n)).toEqual({ receiver: creator.address, amount: 250n });
    // Overlapping / earlier / inverted ranges are refused.
    expect((await chain.revertOf(collectible.setRangeRoyalty(2010n, 2030n, creator.address, 100), accounts.operator))?.name).toBe('InvalidRoyaltyRange');
    expect((await chain.revertOf(collectible.setRangeRoyalty(1050n, 1600n, creator.address, 100), accounts.operator))?.name).toBe('InvalidRoyaltyRange');
    expect((await chain.revertOf(collectible.setRangeRoyalty(1500n, 2000n, creator.address, 100), accounts.operator))?.name).toBe('InvalidRoyaltyRange');
    expect((await chain.revertOf(collectible.setRangeRoyalty(900n, 1000n, creator.address, 100), accounts.operator))?.name).toBe('InvalidRoyaltyRange');
    // Between the ranges (a release made before royalties were set on chain), and before the first one.
    const early = chain.freshAccount();
    await chain.send(collectible.setRangeRoyalty(1500n, 1599n, early.address, 700), accounts.operator);
    await chain.send(collectible.setRangeRoyalty(10n, 19n, early.address, 100), accounts.operator);
    expect(await royaltyOf(1599n, 10_000n)).toEqual({ receiver: early.address, amount: 700n });
    expect(await royaltyOf(10n, 10_000n)).toEqual({ receiver: early.address, amount: 100n });
    expect((await royaltyOf(1600n, 10_000n)).amount).toBe(0n);
    // The neighbours are unchanged.
    expect(await royaltyOf(1099n, 10_000n)).toEqual({ receiver: (await royaltyOf(1000n, 1n)).receiver, amount: 500n });
    expect(await royaltyOf(2019n, 10_000n)).toEqual({ receiver: creator.address, amount: 250n });
    expect((await chain.revertOf(collectible.setRangeRoyalty(3000n, 2999n, creator.address, 100), accounts.operator))?.name).toBe('InvalidRoyaltyRange');
    // Growing the earlier range (1000..) into the next one (2000..) is refused too.
    expect((await chain.revertOf(collectible.setRangeRoyalty(1000n, 2000n, creator.address, 100), accounts.operator))?.name).toBe('InvalidRoyaltyRange');
    // A royalty needs a receiver.
    expect((await chain.revertOf(collectible.setRangeRoyalty(3000n, 3001n, ZERO, 100), accounts.operator))?.name).toBe('InvalidRoyaltyRange');
    // Rate 0 keeps the range and pays nothing.
    await chain.send(collectible.setRangeRoyalty(2000n, 2019n, creator.address, 0), accounts.operator);
    expect((await royaltyOf(2005n, 10_000n)).amount).toBe(0n);
  });

  it('at most 10 %; only the operator or the owner sets ranges; only the owner sets the default', async () => {
    const { collectible, accounts } = chain;
    const creator = chain.freshAccount();
    expect((await chain.revertOf(collectible.setRangeRoyalty(4000n, 4009n, creator.address, 1001), accounts.operator))?.name).toBe('RoyaltyTooHigh');
    expect((await chain.revertOf(collectible.setRangeRoyalty(4000n, 4009n, creator.address, 100), accounts.stranger))?.name).toBe('NotOperator');
    expect(await chain.revertOf(collectible.setRangeRoyalty(4000n, 4009n, creator.address, 1000), accounts.owner)).toBeNull();
    await chain.send(collectible.setRangeRoyalty(4000n, 4009n, creator.address, 1000), accounts.owner);
    expect((await royaltyOf(4009n, 12_345n)).amount).toBe(1234n);

    expect((await chain.revertOf(collectible.setDefaultRoyalty(creator.address, 100), accounts.operator))?.name).toBe('OwnableUnauthorizedAccount');
    expect((await chain.revertOf(collectible.setDefaultRoyalty(creator.address, 1001), accounts.owner))?.name).toBe('RoyaltyTooHigh');
    await chain.send(collectible.setDefaultRoyalty(creator.address, 200), accounts.owner);
    // Outside every range → the default; inside a range → the range.
    expect(await royaltyOf(5n, 10_000n)).toEqual({ receiver: creator.address, amount: 200n });
    expect(await royaltyOf(1650n, 10_000n)).toEqual({ receiver: creator.address, amount: 200n });
    expect((await royaltyOf(1000n, 10_000n)).amount).toBe(500n);
  });
});
