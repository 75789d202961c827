import { describe, expect, it } from 'vitest';
import {
  encodeType,
  exchangeDomain,
  executedOrderDigest,
  hashDomain,
  hashExecutedOrder,
  hashListOrder,
  hashStruct,
  hashTypedData,
  listOrderDigest,
  listOrderTypedData,
  typeHash,
  type Cip23TypedData,
  type ListOrder,
} from '../src/cip23.ts';
import { toBase32Address } from '../src/address.ts';
import golden from '../src/cip23-vectors.json' with { type: 'json' };

// Reference vectors of the CIP-23 reference library (conflux-fans/cip-23, src/cip-23.test.ts).
const mail = {
  types: {
    CIP23Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as unknown as Cip23TypedData;

const approval = {
  types: {
    CIP23Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
      { name: 'salt', type: 'bytes32' },
    ],
    Transaction: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'data', type: 'bytes' },
      { name: 'nonce', type: 'uint256' },
    ],
    TransactionApproval: [
      { name: 'owner', type: 'address' },
      { name: 'transaction', type: 'Transaction' },
    ],
  },
  primaryType: 'TransactionApproval',
  domain: {
    name: 'Multisig Wallet',
    version: '1',
    chainId: 1,
    verifyingContract: '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa',
    salt: '0x1dbbd6c8d75f4b446bcb44cee3ba5da8120e056d4d2f817213df8703ef065ed3',
  },
  message: {
    owner: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB',
    transaction: { to: '0x4bbeEB066eD09B7AEd07bF39EEe0460DFa261520', amount: '1000000000000000000', data: '', nonce: '1' },
  },
} as unknown as Cip23TypedData;

const arrays = {
  ...mail,
  types: {
    ...mail.types,
    Mail: [
      { name: 'from', type: 'Person[]' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string[3]' },
    ],
  },
  message: {
    from: [{ name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' }],
    to: [
      { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
      { name: 'Alice', wallet: '0xdddddddddddddddddddddddddddddddddddddddd' },
      { name: 'Michael', wallet: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' },
    ],
    contents: ['Hello, Bob!', 'Hello, Alice!', 'Hello, Michael!'],
  },
} as unknown as Cip23TypedData;

describe('generic CIP-23 encoding (reference vectors)', () => {
  it('encodes types with dependencies sorted after the primary type', () => {
    expect(encodeType(mail.types, 'CIP23Domain')).toBe('CIP23Domain(string name,string version,uint256 chainId,address verifyingContract)');
    expect(encodeType(mail.types, 'Mail')).toBe('Mail(Person from,Person to,string contents)Person(string name,address wallet)');
    expect(encodeType(approval.types, 'TransactionApproval')).toBe(
      'TransactionApproval(address owner,Transaction transaction)Transaction(address to,uint256 amount,bytes data,uint256 nonce)',
    );
  });

  it('computes type hashes', () => {
    expect(typeHash(mail.types, 'CIP23Domain')).toBe('0xf84835081e4bf7951170279938141a886e3f74e3ad5baf55f0aa17d764ab3192');
    expect(typeHash(mail.types, 'Mail')).toBe('0xa0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2');
    expect(typeHash(approval.types, 'CIP23Domain')).toBe('0xf7cec43ebb312d0122e44bda756ceb951e3659b67c937292db13c8149afba0a4');
    expect(typeHash(arrays.types, 'Mail')).toBe('0xc81112a69b6596b8bc0678e67d97fbf9bed619811fc781419323ec02d1c7290d');
  });

  it('computes struct hashes and digests', () => {
    expect(hashStruct(mail.types, 'CIP23Domain', mail.domain as never)).toBe('0x08d4df1fd1a7d9c1a27a86b3b19b3258bd6f07d9ed1b88f52705f12453a4a5a1');
    expect(hashStruct(mail.types, 'Mail', mail.message)).toBe('0xc52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e');
    expect(hashTypedData(mail)).toBe('0xf930c72ca47e411d8671f3bee80e1d7594cd17a04355b15db5f11c2aba0a54e9');
    expect(hashStruct(approval.types, 'TransactionApproval', approval.message)).toBe(
      '0x309886ad75ec7c2c6a69bffa2669bad00e3b1e0a85221eff4e8926a2f8ff5077',
    );
    expect(hashTypedData(approval)).toBe('0x624cb33787443b5319e6b56c495dfa70d6ff2e23a7ddb3f5f1d132bf456543de');
    expect(hashTypedData(arrays)).toBe('0x38ac2adfb33e2cb9358afd39cdea9aa0543df5e34634d4196abd50099777aee6');
  });

  it('rejects missing fields, wrong array lengths and unknown types', () => {
    const { contents: _omit, ...partial } = mail.message as Record<string, unknown>;
    expect(() => hashStruct(mail.types, 'Mail', partial)).toThrow(/missing/);
    expect(() => hashTypedData({ ...arrays, message: { ...arrays.message, contents: ['a'] } })).toThrow(/3 items/);
    expect(() => hashStruct({ X: [{ name: 'a', type: 'uint7x' }] }, 'X', { a: 1 })).toThrow(/unsupported/);
  });
});

const SELLER = '0x1a2f80341409639ea6a35bbcab8299066109aa55';
const NFT = '0x8b8689c7f3014a4d86e4d1d0daaf74a47f5e7f76';
const EXCHANGE = '0x8e5a5dd0ee4b5d5ce28d4d5b5c9d1b4e2e1a7c01';
const order: ListOrder = { seller: SELLER, nftToken: NFT, tokenId: 7, amount: 9900n, sellerOrderId: 'S1' };

describe('listOrder typed data', () => {
  it('builds what Fluent needs: CIP23Domain, numeric chainId, hex addresses', () => {
    const domain = exchangeDomain(1029, toBase32Address(EXCHANGE));
    const td = listOrderTypedData({ ...order, seller: toBase32Address(SELLER) }, domain);
    expect(td.primaryType).toBe('listOrder');
    expect(Object.keys(td.types)).toEqual(['CIP23Domain', 'listOrder']);
    expect(td.domain).toEqual({ name: '1', version: '1', chainId: 1029, verifyingContract: EXCHANGE });
    expect(typeof td.domain.chainId).toBe('number');
    expect(td.message).toEqual({ seller: SELLER, nftToken: NFT, tokenId: '7', amount: '9900', sellerOrderId: 'S1' });
    // JSON round trip (what goes over window.conflux.request) keeps the digest.
    expect(hashTypedData(JSON.parse(JSON.stringify(td)))).toBe(listOrderDigest(order, domain));
  });

  it('uses the exact type strings of the Exchange contract', () => {
    expect(encodeType(listOrderTypedData(order, exchangeDomain(1029, EXCHANGE)).types, 'listOrder')).toBe(
      'listOrder(address seller,address nftToken,uint256 tokenId,uint256 amount,string sellerOrderId)',
    );
  });

  it('hashes base32 and hex addresses, numbers, strings and bigints identically', () => {
    const domain = exchangeDomain(1029, EXCHANGE);
    const variants: ListOrder[] = [
      order,
      { ...order, seller: toBase32Address(SELLER), nftToken: toBase32Address(NFT, 1029, true) },
      { ...order, tokenId: '7', amount: '9900' },
      { ...order, tokenId: '0x7', amount: 9900 },
      { ...order, seller: SELLER.toUpperCase().replace('0X', '0x') },
    ];
    const digests = new Set(variants.map((o) => listOrderDigest(o, domain)));
    expect(digests.size).toBe(1);
  });

  it('binds every field and the domain', () => {
    const domain = exchangeDomain(1029, EXCHANGE);
    const base = listOrderDigest(order, domain);
    const changed = [
      listOrderDigest({ ...order, seller: NFT }, domain),
      listOrderDigest({ ...order, nftToken: SELLER }, domain),
      listOrderDigest({ ...order, tokenId: 8 }, domain),
      listOrderDigest({ ...order, amount: 9901 }, domain),
      listOrderDigest({ ...order, sellerOrderId: 'S2' }, domain),
      listOrderDigest(order, exchangeDomain(1, EXCHANGE)),
      listOrderDigest(order, exchangeDomain(1029, NFT)),
    ];
    for (const d of changed) expect(d).not.toBe(base);
  });

  it('validates inputs', () => {
    expect(() => exchangeDomain('1029' as unknown as number, EXCHANGE)).toThrow(/JS number/);
    expect(() => exchangeDomain(1029, 'cfx:nope')).toThrow(/invalid Conflux address/);
    expect(() => hashListOrder({ ...order, tokenId: -1 })).toThrow(/uint256/);
    expect(() => hashListOrder({ ...order, tokenId: 2 ** 60 })).toThrow(/safe integer/);
    expect(() => hashListOrder({ ...order, amount: (1n << 256n).toString() })).toThrow(/uint256/);
    expect(() => hashListOrder({ ...order, amount: '1.5' })).toThrow(/integer/);
  });
});

describe('golden vectors (src/cip23-vectors.json)', () => {
  it.each(golden.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const domain = exchangeDomain(v.domain.chainId, v.domain.verifyingContract);
    expect(domain).toEqual(v.domain);
    expect(hashDomain(domain)).toBe(v.expected.domainSeparator);
    expect(hashListOrder(v.listOrder)).toBe(v.expected.listOrderStructHash);
    expect(listOrderDigest(v.listOrder, domain)).toBe(v.expected.listOrderDigest);
    const executed = { ...v.listOrder, ...v.executed };
    expect(hashExecutedOrder(executed)).toBe(v.expected.executedOrderStructHash);
    expect(executedOrderDigest(executed, domain)).toBe(v.expected.executedOrderDigest);
  });

  it('covers domain binding: same order on another chain / contract has another digest', () => {
    const digests = golden.vectors.filter((v) => v.listOrder.sellerOrderId === 'S202401010001').map((v) => v.expected.listOrderDigest);
    expect(digests).toHaveLength(3);
    expect(new Set(digests).size).toBe(3);
  });
});
