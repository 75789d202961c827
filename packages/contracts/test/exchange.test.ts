// Order-protocol invariants of, each checked on a real @xcfx/node dev chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { exchangeDomain, hashDomain, listOrderDigest, type ListOrder } from '@cfx/protocol/cip23.ts';
import { malleateSignature, splitSignature } from '@cfx/protocol/signature.ts';
import { ZERO_ADDRESS } from '../src/deploy.ts';
import { recoverListOrderSigner, signListOrder, verifyListOrder } from '../src/order-signature.ts';
import { hex32, KEYS, orderArg, startTestChain, uid, type TestChain } from './fixture.ts';

let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain();
});

afterAll(async () => {
  await chain?.stop();
});

/** exchange.executeOrder(...) as a method transaction. */
function execute(order: ListOrder, signature: string, buyer = chain.accounts.buyer.address, buyerOrderId = uid('B')) {
  return chain.exchange.executeOrder(orderArg(order), signature, buyer, buyerOrderId);
}

async function ownerOf(tokenId: bigint | number | string): Promise<string> {
  return toBase32Address(await chain.collectible.ownerOf(tokenId));
}

describe('Exchange on a real node', () => {
  it('settles a signed, approved order: token moves seller -> buyer, event carries the TS order hash', async () => {
    const { accounts, exchange } = chain;
    const { order, signature } = await chain.listNew();
    // On Core, ecrecover returns the 0x1… hex form of the seller's address.
    expect(toBase32Address(await exchange.recoverSigner(orderArg(order), signature))).toBe(accounts.seller.address);
    expect(recoverListOrderSigner(signature, order, chain.domain)).toBe(accounts.seller.hex);

    const buyerOrderId = uid('B');
    const receipt = await chain.send(execute(order, signature, accounts.buyer.address, buyerOrderId), accounts.operator);
    expect(receipt.outcomeStatus).toBe(0);
    expect(await ownerOf(order.tokenId)).toBe(accounts.buyer.address);
    expect(toBase32Address(await chain.collectible.getApproved(order.tokenId))).toBe(toBase32Address(ZERO_ADDRESS));

    const digest = listOrderDigest(order, chain.domain);
    const executed = chain.events(receipt).find((e) => e.name === 'OrderExecuted');
    expect(executed).toBeDefined();
    expect(hex32(executed!.object.orderHash)).toBe(digest);
    expect(executed!.object.sellerOrderId).toBe(order.sellerOrderId);
    expect(executed!.object.buyerOrderId).toBe(buyerOrderId);
    expect(executed!.object.amount).toBe(9900n);
    // The fill state is the seller order id's (the hash commits to it): no slot per order hash.
    expect(Number(await exchange.sellerOrderIdState(await exchange.sellerOrderKey(order.seller, order.sellerOrderId)))).toBe(1);
    expect(Number(await exchange.orderState(orderArg(order)))).toBe(1); // Filled
  });

  it('binds the signature to the domain: chain id 1029 and this exchange only', async () => {
    const { accounts, exchange, deployed } = chain;
    // block.chainid on Core is the network id: the contract's separator equals the TS one for 1029.
    expect(hex32(await exchange.domainSeparator())).toBe(hashDomain(chain.domain));

    const { order } = await chain.listNew();
    const otherChain = signListOrder(accounts.seller.key, order, exchangeDomain(1, deployed.exchangeHex));
    const otherContract = signListOrder(accounts.seller.key, order, exchangeDomain(1029, deployed.collectibleHex));
    expect((await chain.revertOf(execute(order, otherChain), accounts.operator))?.name).toBe('InvalidSigner');
    expect((await chain.revertOf(execute(order, otherContract), accounts.operator))?.name).toBe('InvalidSigner');
    expect(verifyListOrder(otherChain, order, chain.domain)).toBe(false);
    // The right domain works.
    const good = signListOrder(accounts.seller.key, order, chain.domain);
    expect(await chain.revertOf(execute(order, good), accounts.operator)).toBeNull();
  });

  it('never fills twice: sellerOrderId (and so the order hash) and buyerOrderId are single use', async () => {
    const { accounts } = chain;
    const { order, signature } = await chain.listNew();
    const buyerOrderId = uid('B');
    await chain.send(execute(order, signature, accounts.buyer.address, buyerOrderId), accounts.operator);

    // The same fill sent again (same buyer order): BuyerOrderIdUsed, which the platform reads as "already
    // settled, check it was ours" — checked before the seller's id, whose SellerOrderIdUsed means "never".
    expect((await chain.revertOf(execute(order, signature, accounts.buyer.address, buyerOrderId), accounts.operator))?.name).toBe('BuyerOrderIdUsed');
    // Same order for another buyer order.
    expect((await chain.revertOf(execute(order, signature), accounts.operator))?.name).toBe('SellerOrderIdUsed');

    // Another order re-using the seller's order id (different price => different hash).
    const reused = { ...order, amount: 1n };
    const reusedSig = signListOrder(accounts.seller.key, reused, chain.domain);
    expect((await chain.revertOf(execute(reused, reusedSig), accounts.operator))?.name).toBe('SellerOrderIdUsed');

    // A fresh, valid order paid by an already used buyer order id.
    const fresh = await chain.listNew();
    const revert = await chain.revertOf(execute(fresh.order, fresh.signature, accounts.buyer.address, buyerOrderId), accounts.operator);
    expect(revert?.name).toBe('BuyerOrderIdUsed');
    // ...while the same order with a new buyer order id goes through.
    await chain.send(execute(fresh.order, fresh.signature), accounts.operator);
    expect(await ownerOf(fresh.order.tokenId)).toBe(accounts.buyer.address);
  });

  it('keys fill state by order ids, not signature bytes: malleated / re-encoded signatures cannot refill', async () => {
    const { accounts } = chain;
    const { order, signature } = await chain.listNew();
    expect(splitSignature(signature).v).toBeLessThan(2); // Conflux style v = 0/1

    // High-s twin of a valid signature is rejected outright.
    const twin = malleateSignature(signature);
    expect((await chain.revertOf(execute(order, twin), accounts.operator))?.name).toBe('InvalidSignatureS');

    // v = 27/28 encoding of the same signature is accepted (before the fill)...
    const v27 = `${signature.slice(0, 130)}${(splitSignature(signature).v + 27).toString(16)}`;
    expect(await chain.revertOf(execute(order, v27), accounts.operator)).toBeNull();

    await chain.send(execute(order, signature), accounts.operator);
    // ...but after the fill neither encoding can fill again.
    expect((await chain.revertOf(execute(order, v27), accounts.operator))?.name).toBe('SellerOrderIdUsed');
    expect((await chain.revertOf(execute(order, twin), accounts.operator))?.name).toBe('SellerOrderIdUsed');
  });

  it('reverts on a wrong signer, a tampered order, a bad v and a badly sized signature', async () => {
    const { accounts } = chain;
    const { order, signature } = await chain.listNew();
    const op = accounts.operator;

    const byStranger = signListOrder(KEYS.stranger, order, chain.domain);
    expect((await chain.revertOf(execute(order, byStranger), op))?.name).toBe('InvalidSigner');

    for (const tampered of [{ ...order, amount: 1n }, { ...order, tokenId: BigInt(order.tokenId) + 1000n }, { ...order, sellerOrderId: `${order.sellerOrderId}x` }]) {
      expect((await chain.revertOf(execute(tampered, signature), op))?.name).toBe('InvalidSigner');
    }
    // Tampered buyer side: the seller field swapped to the buyer.
    expect((await chain.revertOf(execute({ ...order, seller: accounts.buyer.hex }, signature), op))?.name).toBe('InvalidSigner');

    for (const v of ['02', '1d', 'ff']) {
      expect((await chain.revertOf(execute(order, `${signature.slice(0, 130)}${v}`), op))?.name).toBe('InvalidSignatureV');
    }
    for (const bad of [signature.slice(0, 130), `${signature}00`, '0x']) {
      expect((await chain.revertOf(execute(order, bad), op))?.name).toBe('InvalidSignatureLength');
    }
    // Zero r/s never recovers.
    expect((await chain.revertOf(execute(order, `0x${'00'.repeat(64)}00`), op))?.name).toBe('InvalidSigner');
    // Still executable with the real signature.
    expect(await chain.revertOf(execute(order, signature), op)).toBeNull();
  });

  it('rejects empty order ids and a zero buyer', async () => {
    const { accounts } = chain;
    const { order, signature } = await chain.listNew();
    const op = accounts.operator;
    expect((await chain.revertOf(execute(order, signature, accounts.buyer.address, ''), op))?.name).toBe('InvalidOrder');
    expect((await chain.revertOf(execute(order, signature, toBase32Address(ZERO_ADDRESS)), op))?.name).toBe('InvalidOrder');
    const empty = { ...order, sellerOrderId: '' };
    expect((await chain.revertOf(execute(empty, signListOrder(KEYS.seller, empty, chain.domain)), op))?.name).toBe('InvalidOrder');
  });

  it('a cancelled order id cannot fill; cancelling is per seller', async () => {
    const { accounts, exchange } = chain;
    const { order, signature } = await chain.listNew();

    // A stranger "cancelling" the same id string only cancels its own id.
    await chain.send(exchange.cancelOrder(order.sellerOrderId), accounts.stranger);
    expect(await chain.revertOf(execute(order, signature), accounts.operator)).toBeNull();

    const receipt = await chain.send(exchange.cancelOrder(order.sellerOrderId), accounts.seller);
    expect(chain.events(receipt).map((e) => e.name)).toEqual(['OrderCancelled']);
    expect(Number(await exchange.orderState(orderArg(order)))).toBe(2); // Cancelled
    expect((await chain.revertOf(execute(order, signature), accounts.operator))?.name).toBe('SellerOrderIdUsed');
    // Cancelling again is a no-op, cancelling a filled id reverts.
    expect(await chain.revertOf(exchange.cancelOrder(order.sellerOrderId), accounts.seller)).toBeNull();
    const filled = await chain.listNew();
    await chain.send(execute(filled.order, filled.signature), accounts.operator);
    expect((await chain.revertOf(exchange.cancelOrder(filled.order.sellerOrderId), accounts.seller))?.name).toBe('SellerOrderIdUsed');
  });

  it('off shelf (approve zero address) cannot fill; back on shelf can', async () => {
    const { accounts, collectible, deployed } = chain;
    const { order, signature } = await chain.listNew();

    await chain.send(collectible.approve(toBase32Address(ZERO_ADDRESS), order.tokenId), accounts.seller);
    expect((await chain.revertOf(execute(order, signature), accounts.operator))?.name).toBe('NotOnShelf');
    // Operator-for-all approval is not "on shelf" either: listing is per token.
    await chain.send(collectible.setApprovalForAll(deployed.exchange, true), accounts.seller);
    expect((await chain.revertOf(execute(order, signature), accounts.operator))?.name).toBe('NotOnShelf');
    await chain.send(collectible.setApprovalForAll(deployed.exchange, false), accounts.seller);

    await chain.send(collectible.approve(deployed.exchange, order.tokenId), accounts.seller);
    await chain.send(execute(order, signature), accounts.operator);
    expect(await ownerOf(order.tokenId)).toBe(accounts.buyer.address);
  });

  it('only the operator executes; only the owner changes the operator', async () => {
    const { accounts, exchange, conflux } = chain;
    const { order, signature } = await chain.listNew();

    for (const who of [accounts.seller, accounts.buyer, accounts.stranger]) {
      expect((await chain.revertOf(execute(order, signature), who))?.name).toBe('NotOperator');
    }
    // Mined for real: the failed transaction has outcomeStatus 1 and changes nothing.
    const hash = await execute(order, signature).sendTransaction({ from: accounts.stranger.address, gas: 500_000n, storageLimit: 1024n });
    const receipt = await conflux.cfx.getTransactionReceipt(hash);
    expect(receipt?.outcomeStatus).toBe(1);
    expect(receipt?.txExecErrorMsg).toMatch(/reverted/i);
    expect(await ownerOf(order.tokenId)).toBe(accounts.seller.address);

    // Only the owner key (not the hot operator key itself) changes the operator.
    for (const who of [accounts.stranger, accounts.operator]) {
      expect((await chain.revertOf(exchange.setOperator(accounts.stranger.address), who))?.name).toBe('OwnableUnauthorizedAccount');
    }
    await chain.send(exchange.setOperator(accounts.stranger.address), accounts.owner);
    try {
      expect((await chain.revertOf(execute(order, signature), accounts.operator))?.name).toBe('NotOperator');
      expect(await chain.revertOf(execute(order, signature), accounts.stranger)).toBeNull();
    } finally {
      await chain.send(exchange.setOperator(accounts.operator.address), accounts.owner);
    }
    await chain.send(execute(order, signature), accounts.operator);
    expect(await ownerOf(order.tokenId)).toBe(accounts.buyer.address);
  });

  it('reverts when the seller no longer owns the token', async () => {
    const { accounts, collectible, deployed } = chain;
    const { order, signature } = await chain.listNew();
    // The seller gives the token away; the transfer clears the approval => off shelf.
    await chain.send(collectible.transferFrom(accounts.seller.address, accounts.stranger.address, order.tokenId), accounts.seller);
    expect((await chain.revertOf(execute(order, signature), accounts.operator))?.name).toBe('NotOnShelf');
    // Even if the new owner approves the exchange, the seller's order cannot move it.
    await chain.send(collectible.approve(deployed.exchange, order.tokenId), accounts.stranger);
    expect((await chain.revertOf(execute(order, signature), accounts.operator))?.name).toBe('ERC721IncorrectOwner');
  });
});
