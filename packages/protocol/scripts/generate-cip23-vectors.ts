// Regenerate src/cip23-vectors.json (run once, review the diff, commit):
//   npx tsx packages/protocol/scripts/generate-cip23-vectors.ts
// The vectors pin the TS hashing; packages/contracts/test checks every vector against
// the Exchange contract on a real node and against an independent CIP-23 implementation.
import { writeFileSync } from 'node:fs';
import {
  exchangeDomain,
  executedOrderDigest,
  hashDomain,
  hashExecutedOrder,
  hashListOrder,
  listOrderDigest,
  type ExecutedOrder,
} from '../src/cip23.ts';

const CONTRACT_A = '0x8e5a5dd0ee4b5d5ce28d4d5b5c9d1b4e2e1a7c01';
const CONTRACT_B = '0x80ba7f1c0f6b5fa6b3ad2c7f9e8b2d2a4c3e9f10';
const SELLER = '0x1a2f80341409639ea6a35bbcab8299066109aa55';
const BUYER = '0x19c742cec42b9e4eff3b84cdedcde2f58a36f44f';
const NFT = '0x8b8689c7f3014a4d86e4d1d0daaf74a47f5e7f76';

const cases: { name: string; chainId: number; verifyingContract: string; order: ExecutedOrder }[] = [
  {
    name: 'basic mainnet order',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    order: { seller: SELLER, nftToken: NFT, tokenId: '1', amount: '9900', sellerOrderId: 'S202401010001', buyer: BUYER, buyerOrderId: 'B202401010001' },
  },
  {
    name: 'zero price, token id 0',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    order: { seller: SELLER, nftToken: NFT, tokenId: '0', amount: '0', sellerOrderId: 'S-0', buyer: BUYER, buyerOrderId: 'B-0' },
  },
  {
    name: 'max uint256 token id and price',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    order: {
      seller: SELLER,
      nftToken: NFT,
      tokenId: ((1n << 256n) - 1n).toString(),
      amount: ((1n << 256n) - 1n).toString(),
      sellerOrderId: 'S-max',
      buyer: BUYER,
      buyerOrderId: 'B-max',
    },
  },
  {
    name: 'unicode and empty order ids',
    chainId: 1029,
    verifyingContract: CONTRACT_A,
    order: { seller: SELLER, nftToken: NFT, tokenId: '42', amount: '123456789', sellerOrderId: '挂单-壹号-😀', buyer: BUYER, buyerOrderId: '' },
  },
  {
    name: 'same order, other chain id (testnet 1)',
    chainId: 1,
    verifyingContract: CONTRACT_A,
    order: { seller: SELLER, nftToken: NFT, tokenId: '1', amount: '9900', sellerOrderId: 'S202401010001', buyer: BUYER, buyerOrderId: 'B202401010001' },
  },
  {
    name: 'same order, other verifying contract',
    chainId: 1029,
    verifyingContract: CONTRACT_B,
    order: { seller: SELLER, nftToken: NFT, tokenId: '1', amount: '9900', sellerOrderId: 'S202401010001', buyer: BUYER, buyerOrderId: 'B202401010001' },
  },
  {
    name: 'long order id (> 32 bytes)',
    chainId: 1029,
    verifyingContract: CONTRACT_B,
    order: { seller: BUYER, nftToken: NFT, tokenId: '1000000007', amount: '100000000', sellerOrderId: 'x'.repeat(100), buyer: SELLER, buyerOrderId: 'y'.repeat(70) },
  },
];

const vectors = cases.map(({ name, chainId, verifyingContract, order }) => {
  const domain = exchangeDomain(chainId, verifyingContract);
  const { buyer, buyerOrderId, ...listOrder } = order;
  return {
    name,
    domain,
    listOrder,
    executed: { buyer, buyerOrderId },
    expected: {
      domainSeparator: hashDomain(domain),
      listOrderStructHash: hashListOrder(listOrder),
      listOrderDigest: listOrderDigest(listOrder, domain),
      executedOrderStructHash: hashExecutedOrder(order),
      executedOrderDigest: executedOrderDigest(order, domain),
    },
  };
});

const file = new URL('../src/cip23-vectors.json', import.meta.url);
writeFileSync(file, `${JSON.stringify({ description: 'CIP-23 golden vectors of listOrder / excuteOrder (domain name "1", version "1")', vectors }, null, 2)}\n`);
console.log(`wrote ${vectors.length} vectors to ${file.pathname}`);
