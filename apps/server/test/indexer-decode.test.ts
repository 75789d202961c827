import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflux, format } from 'js-conflux-sdk';
import { loadArtifact } from '@cfx/contracts/src/artifacts.ts';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { decodeTokenLog } from '../src/chain/indexer.ts';

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

  it('leaves every other log to the SDK', () => {
    const base32 = (hex: string) => hex;
    const transfer = format.keccak256('Transfer(address,address,uint256)') as string;
    // an ERC-20 Transfer (value in data, three topics), another event, a log with data
    expect(decodeTokenLog({ topics: [transfer, word('1'), word('2')], data: word('5') }, base32)).toBeUndefined();
    expect(decodeTokenLog({ topics: [format.keccak256('Consumed(address,uint256[],uint256[])') as string, word('1'), word('2'), word('3')], data: '0x' }, base32)).toBeUndefined();
    expect(decodeTokenLog({ topics: [transfer, word('1'), word('2'), word('3')], data: word('9') }, base32)).toBeUndefined();
  });
});
