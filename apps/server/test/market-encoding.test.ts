import crypto from 'node:crypto';
import fc from 'fast-check';
import { Conflux } from 'js-conflux-sdk';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '@cfx/contracts/src/artifacts.ts';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { encodeExecuteOrder, encodeExecuteOrders } from '../src/modules/market/chain-settlement.ts';

/** The hand-written ABI encoding of Exchange.executeOrder equals js-conflux-sdk's on the compiled ABI, byte for byte. */
const art = await loadArtifact('Exchange');
const exchange: any = new Conflux({ networkId: 1029 }).Contract({ abi: art.abi as any, address: toBase32Address(`0x8${'1'.repeat(39)}`, 1029) });
const selector: string = exchange.executeOrder.signature;
const user = () => `0x1${crypto.randomBytes(20).toString('hex').slice(1)}`;

describe('executeOrder calldata', () => {
  it('the selector is the compiled ABI\'s executeOrder((address,address,uint256,uint256,string),bytes,address,string)', () => {
    expect(exchange.executeOrder.type).toBe('executeOrder((address,address,uint256,uint256,string),bytes,address,string)');
    expect(selector).toMatch(/^0x[0-9a-f]{8}$/);
    expect(() => encodeExecuteOrder({} as never, 'executeOrder')).toThrow(TypeError);
  });
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
          expect(encodeExecuteOrder(req, selector)).toBe(sdk);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('executeOrders calldata (a batch of fills)', () => {
  const batchSelector: string = exchange.executeOrders.signature;
  it('the selector is the compiled ABI\'s executeOrders(((address,address,uint256,uint256,string),bytes,address,string)[])', () => {
    expect(exchange.executeOrders.type).toBe('executeOrders(((address,address,uint256,uint256,string),bytes,address,string)[])');
    expect(() => encodeExecuteOrders([], 'executeOrders')).toThrow(TypeError);
  });
  it('matches js-conflux-sdk for any batch, the empty one included', () => {
    const fill = fc.record({
      tokenId: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
      amount: fc.integer({ min: 0, max: 100_000_000 }),
      sellerOrderId: fc.string({ minLength: 1, maxLength: 80 }),
      buyerOrderId: fc.string({ minLength: 1, maxLength: 80 }),
      sig: fc.uint8Array({ minLength: 0, maxLength: 130 }),
      base32: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(fill, { minLength: 0, maxLength: 6 }), (fills) => {
        const reqs = [];
        const args = [];
        for (const f of fills) {
          const seller = user(), nft = `0x8${crypto.randomBytes(20).toString('hex').slice(1)}`, buyer = user();
          const signature = `0x${Buffer.from(f.sig).toString('hex')}`;
          reqs.push({
            key: 'k',
            order: { seller: f.base32 ? toBase32Address(seller, 1029) : seller, nftToken: nft, tokenId: f.tokenId, amount: f.amount, sellerOrderId: f.sellerOrderId },
            signature, buyer: f.base32 ? toBase32Address(buyer, 1029) : buyer, buyerOrderId: f.buyerOrderId,
          });
          args.push({ order: { seller, nftToken: nft, tokenId: f.tokenId, amount: BigInt(f.amount), sellerOrderId: f.sellerOrderId }, signature, buyer, buyerOrderId: f.buyerOrderId });
        }
        expect(encodeExecuteOrders(reqs, batchSelector)).toBe(exchange.executeOrders(args).data);
      }),
      { numRuns: 200 },
    );
  });
});
