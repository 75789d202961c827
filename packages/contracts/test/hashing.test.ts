// TS hashing (packages/protocol) == contract hashing, pinned by the golden vectors, and
// cross-checked with an independent CIP-23 implementation (cive, used by @xcfx/node).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTypedData as civeHashTypedData } from 'cive/utils';
import { privateKeyToAccount } from 'cive/accounts';
import { toBase32Address } from '@cfx/protocol/address.ts';
import {
  exchangeDomain,
  executedOrderTypedData,
  listOrderDigest,
  listOrderTypedData,
  type Cip23TypedData,
} from '@cfx/protocol/cip23.ts';
import golden from '@cfx/protocol/cip23-vectors.json' with { type: 'json' };
import { collectibleDomain, consumeDigest, consumeTypedData, type Consume } from '@cfx/protocol/consume.ts';
import consumeGolden from '@cfx/protocol/consume-vectors.json' with { type: 'json' };
import { signConsume } from '../src/consume-signature.ts';
import { signListOrder } from '../src/order-signature.ts';
import { consumeArg, hex32, KEYS, orderArg, startTestChain, type TestChain } from './fixture.ts';

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain();
});

afterAll(async () => {
  await chain?.stop();
});

/** cive wants base32 addresses in typed data (Fluent wants hex); the hash is the same. */
function forCive(td: Cip23TypedData<object>): Parameters<typeof civeHashTypedData>[0] {
  const toB32 = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-f]{40}$/i.test(v) ? toBase32Address(v) : v);
  const { CIP23Domain: _domainType, ...types } = td.types;
  return {
    domain: { ...td.domain, verifyingContract: toBase32Address(td.domain.verifyingContract) },
    types,
    primaryType: td.primaryType,
    message: Object.fromEntries(Object.entries(td.message).map(([k, v]) => [k, toB32(v)])),
  } as unknown as Parameters<typeof civeHashTypedData>[0];
}

describe('golden vectors against the Exchange contract', () => {
  it.each(golden.vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    const { exchange } = chain;
    const { chainId, verifyingContract } = v.domain;
    expect(hex32(await exchange.domainSeparatorFor(chainId, verifyingContract))).toBe(v.expected.domainSeparator);
    expect(hex32(await exchange.hashListOrder(orderArg(v.listOrder)))).toBe(v.expected.listOrderStructHash);
    expect(hex32(await exchange.hashOrderForDomain(orderArg(v.listOrder), chainId, verifyingContract))).toBe(v.expected.listOrderDigest);
    // And on the live domain (block.chainid = 1029, address(this)).
    expect(hex32(await exchange.hashOrder(orderArg(v.listOrder)))).toBe(listOrderDigest(v.listOrder, chain.domain));
  });
});

describe('independent implementation (cive) agrees', () => {
  it.each(golden.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const domain = exchangeDomain(v.domain.chainId, v.domain.verifyingContract);
    expect(civeHashTypedData(forCive(listOrderTypedData(v.listOrder, domain)))).toBe(v.expected.listOrderDigest);
    const executed = { ...v.listOrder, ...v.executed };
    expect(civeHashTypedData(forCive(executedOrderTypedData(executed, domain)))).toBe(v.expected.executedOrderDigest);
  });

  it('produces byte-identical signatures (RFC 6979), accepted by the contract', async () => {
    const { order } = await chain.listNew();
    const ours = signListOrder(KEYS.seller, order, chain.domain);
    const td = forCive(listOrderTypedData(order, chain.domain));
    const theirs = await privateKeyToAccount(KEYS.seller, { networkId: 1029 }).signTypedData(td as never);
    expect(theirs).toBe(ours);
    expect(toBase32Address(await chain.exchange.recoverSigner(orderArg(order), theirs))).toBe(chain.accounts.seller.address);
  });
});

/** cive's typed-data encoder wants bigints for uint256 array items. */
function consumeForCive(td: Cip23TypedData<object>): Parameters<typeof civeHashTypedData>[0] {
  const base = forCive(td) as unknown as { message: Record<string, unknown> };
  const message = Object.fromEntries(
    Object.entries(base.message).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => BigInt(x as string)) : v]),
  );
  return { ...base, message } as unknown as Parameters<typeof civeHashTypedData>[0];
}

describe('Consume golden vectors against the Collectible contract', () => {
  it.each(consumeGolden.vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    const { collectible, deployed } = chain;
    const { chainId, verifyingContract } = v.domain;
    expect(hex32(await collectible.domainSeparatorFor(chainId, verifyingContract))).toBe(v.expected.domainSeparator);
    expect(hex32(await collectible.hashConsume(consumeArg(v.consume)))).toBe(v.expected.consumeStructHash);
    expect(hex32(await collectible.consumeDigestForDomain(consumeArg(v.consume), chainId, verifyingContract))).toBe(v.expected.consumeDigest);
    // And on the live domain (block.chainid = 1029, address(this)).
    const live = collectibleDomain(1029, deployed.collectibleHex);
    expect(hex32(await collectible.consumeDigest(consumeArg(v.consume)))).toBe(consumeDigest(v.consume, live));
  });

  it.each(consumeGolden.vectors.map((v) => [v.name, v] as const))('cive agrees: %s', (_name, v) => {
    const domain = collectibleDomain(v.domain.chainId, v.domain.verifyingContract);
    expect(civeHashTypedData(consumeForCive(consumeTypedData(v.consume, domain)))).toBe(v.expected.consumeDigest);
  });

  it('cive signs Consume byte-identically, and the contract recovers the holder', async () => {
    const domain = collectibleDomain(1029, chain.deployed.collectibleHex);
    const consume: Consume = { owner: chain.accounts.seller.hex, burnIds: [1n, 2n], mintIds: [3n], flowId: 'F-cive' };
    const ours = signConsume(KEYS.seller, consume, domain);
    const theirs = await privateKeyToAccount(KEYS.seller, { networkId: 1029 }).signTypedData(consumeForCive(consumeTypedData(consume, domain)) as never);
    expect(theirs).toBe(ours);
    expect(toBase32Address(await chain.collectible.recoverConsumeSigner(consumeArg(consume), theirs))).toBe(chain.accounts.seller.address);
  });
});
