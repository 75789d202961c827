import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflux, format } from 'js-conflux-sdk';
import { loadArtifact } from '@cfx/contracts/src/artifacts.ts';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { decodeOrderExecutedLog, decodeTokenLog } from '../src/chain/indexer.ts';

/**
 * The indexer decodes ERC-721 Transfer and Approval logs from their topics (chain/indexer.ts
 * decodeTokenLog) instead of through js-conflux-sdk's ABI decoder: the two must give the same event,
 * fields, field order and base32 addresses, so `chain_records` (its `data` JSON included) is the same.
 */
const word = (hex: string) => `0x${hex.replace(/^0x/, '').padStart(64, '0')}`;
const randomHex = (first: string) => `0x${first}${crypto.randomBytes(20).toString('hex').slice(1)}`;

describe('decodeTokenLog', () => {
  it('equals js-conflux-sdk decodeLog for Transfer and Approval of the Collectible (zero, user and contract addresses)', async () => {
    const networkId = 1029;
    const art = await loadArtifact('Collectible');
    const address = format.address(randomHex('8'), networkId) as string;
    const contract = new Conflux({ networkId }).Contract({ abi: art.abi, address });
    const topicOf = (sig: string) => format.keccak256(sig) as string;
    // What the indexer converts with (chain/indexer.ts): @cfx/protocol's memoised codec.
    const base32 = (hex: string) => toBase32Address(hex, networkId);
    const addresses = ['0x0000000000000000000000000000000000000000', randomHex('1'), randomHex('1'), randomHex('8')];
    let n = 0;
    for (const event of ['Transfer(address,address,uint256)', 'Approval(address,address,uint256)']) {
      for (const a of addresses) {
        for (const b of addresses) {
          const tokenId = BigInt(`0x${crypto.randomBytes(n++ % 2 ? 4 : 31).toString('hex')}`);
          const log = { address, data: '0x', topics: [topicOf(event), word(a), word(b), word(tokenId.toString(16))] };
          const sdk = contract.abi.decodeLog(log) as { name: string; object: Record<string, unknown> };
          const ours = decodeTokenLog(log, base32)!;
          expect(ours.name).toBe(sdk.name);
          const json = (o: unknown) => JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
          expect(json(ours.object)).toBe(json(sdk.object));
        }
      }
    }
  });

  it('equals js-conflux-sdk decodeLog for the Exchange\'s OrderExecuted (strings of every length, Chinese included)', async () => {
    const networkId = 1029;
    const art = await loadArtifact('Exchange');
    const address = format.address(randomHex('8'), networkId) as string;
    const contract = new Conflux({ networkId }).Contract({ abi: art.abi, address });
    const base32 = (hex: string) => toBase32Address(hex, networkId);
    const topic = format.keccak256('OrderExecuted(bytes32,address,address,address,uint256,uint256,string,string)') as string;
    const w = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');
    const str = (v: string) => {
      const b = Buffer.from(v, 'utf8');
      return w(b.length.toString(16)) + b.toString('hex').padEnd(Math.ceil(b.length / 32) * 64, '0');
    };
    const ids = ['', 'S1', 'MO20261128173000123456', 'x'.repeat(32), 'y'.repeat(33), '订单-中文-🙂', crypto.randomBytes(40).toString('base64')];
    const json = (o: unknown) => JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    let n = 0;
    for (const sellerOrderId of ids) {
      for (const buyerOrderId of [ids[n++ % ids.length]!, 'MO2026112800000001']) {
        const sellerPart = str(sellerOrderId);
        const head = w(randomHex('8')) + w(crypto.randomBytes(n % 2 ? 3 : 32).toString('hex')) + w(BigInt(n * 9_900).toString(16)) + w((5 * 32).toString(16)) + w((5 * 32 + sellerPart.length / 2).toString(16));
        const log = { address, data: `0x${head}${sellerPart}${str(buyerOrderId)}`, topics: [topic, `0x${crypto.randomBytes(32).toString('hex')}`, `0x${w(randomHex('1'))}`, `0x${w(randomHex('1'))}`] };
        const sdk = contract.abi.decodeLog(log) as { name: string; object: Record<string, unknown> };
        const ours = decodeOrderExecutedLog(log, base32)!;
        expect(ours.name).toBe(sdk.name);
        expect(json(ours.object)).toBe(json(sdk.object));
        expect(ours.object.buyerOrderId).toBe(buyerOrderId);
      }
    }
    // Data that does not fit the layout is left to the SDK (which refuses it too).
    const good = { address, topics: [topic, `0x${'ab'.repeat(32)}`, `0x${w('1')}`, `0x${w('2')}`] };
    expect(decodeOrderExecutedLog({ ...good, data: `0x${w('8')}` }, base32)).toBeUndefined();
    expect(decodeOrderExecutedLog({ ...good, data: `0x${w('8')}${w('1')}${w('2')}${w('a0')}${w('ffffff')}${str('S')}` }, base32)).toBeUndefined();
    expect(decodeOrderExecutedLog({ ...good, data: `0x${w('8')}${w('1')}${w('2')}${w('a1')}${w('e0')}${str('S')}${str('B')}` }, base32)).toBeUndefined();
  });

  it('leaves every other log to the SDK', () => {
    const base32 = (hex: string) => hex;
    const transfer = format.keccak256('Transfer(address,address,uint256)') as string;
    // an ERC-20 Transfer (value in data, three topics), another event, a log with data
    expect(decodeTokenLog({ topics: [transfer, word('1'), word('2')], data: word('5') }, base32)).toBeUndefined();
    expect(decodeTokenLog({ topics: [format.keccak256('Consumed(address,uint256[],uint256[])') as string, word('1'), word('2'), word('3')], data: '0x' }, base32)).toBeUndefined();
    expect(decodeTokenLog({ topics: [transfer, word('1'), word('2'), word('3')], data: word('9') }, base32)).toBeUndefined();
  });
});
