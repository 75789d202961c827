import { describe, expect, it } from 'vitest';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';
import { toBase32Address } from '../src/address.ts';
import { encodeType, hashDomain, hashTypedData } from '../src/cip23.ts';
import { collectibleDomain, consumeDigest, consumeTypedData, hashConsume, type Consume } from '../src/consume.ts';
import golden from '../src/consume-vectors.json' with { type: 'json' };

const HOLDER = '0x1a2f80341409639ea6a35bbcab8299066109aa55';
const OTHER = '0x19c742cec42b9e4eff3b84cdedcde2f58a36f44f';
const COLLECTIBLE = '0x8b8689c7f3014a4d86e4d1d0daaf74a47f5e7f76';
const consume: Consume = { owner: HOLDER, burnIds: [101, 102n, '103'], mintIds: ['9001'], flowId: 'C1' };

const word = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'));
const keccak = (b: Uint8Array) => keccak_256(b);

describe('Consume typed data', () => {
  it('builds what Fluent needs: CIP23Domain, numeric chainId, hex addresses, decimal-string ids', () => {
    const domain = collectibleDomain(1029, toBase32Address(COLLECTIBLE));
    const td = consumeTypedData({ ...consume, owner: toBase32Address(HOLDER) }, domain);
    expect(td.primaryType).toBe('Consume');
    expect(Object.keys(td.types)).toEqual(['CIP23Domain', 'Consume']);
    expect(td.domain).toEqual({ name: 'Collectible', version: '1', chainId: 1029, verifyingContract: COLLECTIBLE });
    expect(typeof td.domain.chainId).toBe('number');
    expect(td.message).toEqual({ owner: HOLDER, burnIds: ['101', '102', '103'], mintIds: ['9001'], flowId: 'C1' });
    // JSON round trip (what goes over window.conflux.request) keeps the digest.
    expect(hashTypedData(JSON.parse(JSON.stringify(td)))).toBe(consumeDigest(consume, domain));
  });

  it('uses the exact type string of the Collectible contract', () => {
    expect(encodeType(consumeTypedData(consume, collectibleDomain(1029, COLLECTIBLE)).types, 'Consume')).toBe(
      'Consume(address owner,uint256[] burnIds,uint256[] mintIds,string flowId)',
    );
  });

  it('hashes arrays as keccak256 of the concatenated 32-byte words (computed by hand here)', () => {
    const typeHash = keccak(utf8ToBytes('Consume(address owner,uint256[] burnIds,uint256[] mintIds,string flowId)'));
    const expected = keccak(concatBytes(
      typeHash,
      word(BigInt(HOLDER)),
      keccak(concatBytes(word(101n), word(102n), word(103n))),
      keccak(word(9001n)),
      keccak(utf8ToBytes('C1')),
    ));
    expect(hashConsume(consume)).toBe(`0x${bytesToHex(expected)}`);
    // An empty array hashes to keccak256 of nothing.
    const empty = keccak(concatBytes(typeHash, word(BigInt(HOLDER)), keccak(new Uint8Array(0)), keccak(word(1n)), keccak(utf8ToBytes(''))));
    expect(hashConsume({ owner: HOLDER, burnIds: [], mintIds: [1], flowId: '' })).toBe(`0x${bytesToHex(empty)}`);
  });

  it('binds every field, the id order and the domain', () => {
    const domain = collectibleDomain(1029, COLLECTIBLE);
    const base = consumeDigest(consume, domain);
    const changed = [
      consumeDigest({ ...consume, owner: OTHER }, domain),
      consumeDigest({ ...consume, burnIds: [101, 102] }, domain),
      consumeDigest({ ...consume, burnIds: [103, 102, 101] }, domain),
      consumeDigest({ ...consume, mintIds: [9002] }, domain),
      consumeDigest({ ...consume, mintIds: [9001, 9002] }, domain),
      // Moving an id from one list to the other changes the digest.
      consumeDigest({ ...consume, burnIds: [101, 102], mintIds: [103, 9001] }, domain),
      consumeDigest({ ...consume, flowId: 'C2' }, domain),
      consumeDigest(consume, collectibleDomain(1, COLLECTIBLE)),
      consumeDigest(consume, collectibleDomain(1029, OTHER)),
      // Same contract and chain, but the Exchange's domain name: another digest.
      consumeDigest(consume, { ...collectibleDomain(1029, COLLECTIBLE), name: '1' }),
    ];
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });

  it('validates inputs', () => {
    expect(() => collectibleDomain(1029n as unknown as number, COLLECTIBLE)).toThrow(/JS number/);
    expect(() => hashConsume({ ...consume, owner: 'cfx:nope' })).toThrow(/invalid Conflux address/);
    expect(() => hashConsume({ ...consume, burnIds: [-1] })).toThrow(/burnIds\[0\].*uint256/);
    expect(() => hashConsume({ ...consume, mintIds: [1, 2 ** 60] })).toThrow(/mintIds\[1\].*safe integer/);
    expect(() => hashConsume({ ...consume, burnIds: '101' as unknown as string[] })).toThrow(/array/);
    expect(() => hashConsume({ ...consume, flowId: 7 as unknown as string })).toThrow(/flowId/);
  });
});

describe('golden vectors (src/consume-vectors.json)', () => {
  it.each(golden.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const domain = collectibleDomain(v.domain.chainId, v.domain.verifyingContract);
    expect(domain).toEqual(v.domain);
    expect(hashDomain(domain)).toBe(v.expected.domainSeparator);
    expect(hashConsume(v.consume)).toBe(v.expected.consumeStructHash);
    expect(consumeDigest(v.consume, domain)).toBe(v.expected.consumeDigest);
  });

  it('covers domain binding: the same consume on another chain / contract has another digest', () => {
    const digests = golden.vectors.filter((v) => v.consume.flowId === 'C202401010001').map((v) => v.expected.consumeDigest);
    expect(digests).toHaveLength(4); // incl. the reordered ids
    expect(new Set(digests).size).toBe(4);
  });
});
