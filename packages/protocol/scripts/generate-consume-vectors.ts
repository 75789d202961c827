// Regenerate src/consume-vectors.json (run once, review the diff, commit):
//   npx tsx packages/protocol/scripts/generate-consume-vectors.ts
// The vectors pin the TS hashing of the Consume typed data (compose / blind box);
// packages/contracts/test/hashing.test.ts checks every vector against the Collectible
// contract on a real node and against an independent CIP-23 implementation (cive).
import { writeFileSync } from 'node:fs';
import { hashDomain } from '../src/cip23.ts';
import { collectibleDomain, consumeDigest, hashConsume, type Consume } from '../src/consume.ts';

const CONTRACT_A = '0x8b8689c7f3014a4d86e4d1d0daaf74a47f5e7f76';
const CONTRACT_B = '0x80ba7f1c0f6b5fa6b3ad2c7f9e8b2d2a4c3e9f10';
const HOLDER = '0x1a2f80341409639ea6a35bbcab8299066109aa55';
const OTHER = '0x19c742cec42b9e4eff3b84cdedcde2f58a36f44f';
const MAX = ((1n << 256n) - 1n).toString();

const cases: { name: string; chainId: number; verifyingContract: string; consume: Consume }[] = [
  {
    name: 'compose: three fragments -> one result',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    consume: { owner: HOLDER, burnIds: ['101', '102', '103'], mintIds: ['9001'], flowId: 'C202401010001' },
  },
  {
    name: 'blind box: box -> drawn item',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    consume: { owner: HOLDER, burnIds: ['500'], mintIds: ['5001'], flowId: 'BOX-500' },
  },
  {
    name: 'order of ids matters',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    consume: { owner: HOLDER, burnIds: ['103', '102', '101'], mintIds: ['9001'], flowId: 'C202401010001' },
  },
  {
    name: 'empty arrays, empty flow id, token id 0',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    consume: { owner: HOLDER, burnIds: [], mintIds: ['0'], flowId: '' },
  },
  {
    name: 'max uint256 ids, unicode flow id',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    consume: { owner: OTHER, burnIds: [MAX, '1'], mintIds: [MAX], flowId: '合成-壹号-😀' },
  },
  {
    name: 'same consume, other chain id (testnet 1)',
    chainId: 1,
    verifyingContract: CONTRACT_A,
    consume: { owner: HOLDER, burnIds: ['101', '102', '103'], mintIds: ['9001'], flowId: 'C202401010001' },
  },
  {
    name: 'same consume, other verifying contract',
    chainId: 1029,
    verifyingContract: CONTRACT_B,
    consume: { owner: HOLDER, burnIds: ['101', '102', '103'], mintIds: ['9001'], flowId: 'C202401010001' },
  },
  {
    name: 'many ids, long flow id (> 32 bytes)',
    chainId: 1029,
    verifyingContract: CONTRACT_B,
    consume: {
      owner: OTHER,
      burnIds: Array.from({ length: 12 }, (_, i) => String(1_000_000_007 + i)),
      mintIds: ['77', '78'],
      flowId: 'f'.repeat(100),
    },
  },
];

const vectors = cases.map(({ name, chainId, verifyingContract, consume }) => {
  const domain = collectibleDomain(chainId, verifyingContract);
  return {
    name,
    domain,
    consume,
    expected: {
      domainSeparator: hashDomain(domain),
      consumeStructHash: hashConsume(consume),
      consumeDigest: consumeDigest(consume, domain),
    },
  };
});

const file = new URL('../src/consume-vectors.json', import.meta.url);
writeFileSync(file, `${JSON.stringify({ description: 'CIP-23 golden vectors of Consume (domain name "Collectible", version "1")', vectors }, null, 2)}\n`);
console.log(`wrote ${vectors.length} vectors to ${file.pathname}`);
