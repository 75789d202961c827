import crypto from 'node:crypto';
import fc from 'fast-check';
import { Conflux } from 'js-conflux-sdk';
import { describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { encodeExecuteOrder } from '../src/modules/market/chain-settlement.ts';

/** The hand-written ABI encoding of Exchange.executeOrder equals js-conflux-sdk's, byte for byte. */
const ABI = [{
  type: 'function', name: 'executeOrder', stateMutability: 'nonpayable', outputs: [{ name: 'orderHash', type: 'bytes32' }],
  inputs: [
    { name: 'order', type: 'tuple', components: [
      { name: 'seller', type: 'address' }, { name: 'nftToken', type: 'address' }, { name: 'tokenId', type: 'uint256' },
      { name: 'amount', type: 'uint256' }, { name: 'sellerOrderId', type: 'string' },
    ] },
    { name: 'signature', type: 'bytes' }, { name: 'buyer', type: 'address' }, { name: 'buyerOrderId', type: 'string' },
  ],
}];
const exchange: any = new Conflux({ networkId: 1029 }).Contract({ abi: ABI as any, address: toBase32Address(`0x8${'1'.repeat(39)}`, 1029) });
const user = () => `0x1${crypto.randomBytes(20).toString('hex').slice(1)}`;

describe('executeOrder calldata', () => {
  it('matches js-conflux-sdk for any order', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.string({ minLength: 1, maxLength: 80 }),
        fc.string({ minLength: 1, maxLength: 80 }),
        fc.uint8Array({ minLength: 0, maxLength: 130 }),
        fc.boolean(),
        (tokenId, amount, sellerOrderId, buyerOrderId, sig, base32) => {
          const seller = user(), nft = `0x8${crypto.randomBytes(20).toString('hex').slice(1)}`, buyer = user();
          const signature = `0x${Buffer.from(sig).toString('hex')}`;
          const req = {
            key: 'k',
            order: { seller: base32 ? toBase32Address(seller, 1029) : seller, nftToken: nft, tokenId, amount, sellerOrderId },
            signature, buyer: base32 ? toBase32Address(buyer, 1029) : buyer, buyerOrderId,
          };
          const sdk = exchange.executeOrder({ seller, nftToken: nft, tokenId, amount: BigInt(amount), sellerOrderId }, signature, buyer, buyerOrderId).data;
          expect(encodeExecuteOrder(req)).toBe(sdk);
        },
      ),
      { numRuns: 300 },
    );
  });
});
