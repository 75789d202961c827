// Exchange.executeOrders (several fills per transaction) on a real @xcfx/node dev chain: bad fills
// are skipped with FillSkipped(buyerOrderId, error selector), the good ones execute exactly like
// executeOrder, and a fill costs less gas in a batch than alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import type { ListOrder } from '@cfx/protocol/cip23.ts';
import { loadArtifact } from '../src/artifacts.ts';
import { signListOrder } from '../src/order-signature.ts';
import { errorSelectors } from '../src/revert.ts';
import { KEYS, orderArg, startTestChain, uid, type Receipt, type TestChain } from './fixture.ts';

let chain: TestChain;
/** Error name → selector (0x…) of both contracts. */
let selectorOf: (name: string) => string;

beforeAll(async () => {
  chain = await startTestChain();
  const map = errorSelectors((await loadArtifact('Collectible')).abi, (await loadArtifact('Exchange')).abi);
  const byName = new Map([...map].map(([sel, name]) => [name, sel]));
  selectorOf = (name) => {
    const s = byName.get(name);
    if (!s) throw new Error(`no error ${name}`);
    return s;
  };
});

afterAll(async () => {
  await chain?.stop();
});

interface FillIn {
  order: ListOrder;
  signature: string;
  buyer?: string;
  buyerOrderId: string;
}

const fillArg = (f: FillIn) => ({ order: orderArg(f.order), signature: f.signature, buyer: f.buyer ?? chain.accounts.buyer.address, buyerOrderId: f.buyerOrderId });
const batch = (fills: FillIn[]) => chain.exchange.executeOrders(fills.map(fillArg));

async function ownerOf(tokenId: bigint | number | string): Promise<string> {
  return toBase32Address(await chain.collectible.ownerOf(tokenId));
}

/** The per-fill outcomes of a receipt, in log order: executed / skipped(selector). */
function outcomes(receipt: Receipt) {
  return chain
    .events(receipt)
    .filter((e) => e.name === 'OrderExecuted' || e.name === 'FillSkipped')
    .map((e) => (e.name === 'OrderExecuted' ? { id: e.object.buyerOrderId, executed: true } : { id: e.object.buyerOrderId, skipped: `0x${Buffer.from(e.object.reason as Uint8Array).toString('hex')}` }));
}

describe('Exchange.executeOrders on a real node', () => {
  it('executes the good fills and skips each bad one with its reason, in one transaction', async () => {
    const { accounts } = chain;
    const good1 = await chain.listNew();
    const cancelled = await chain.listNew();
    await chain.send(chain.exchange.cancelOrder(cancelled.order.sellerOrderId), accounts.seller);
    const offShelf = await chain.listNew();
    await chain.send(chain.collectible.approve('0x0000000000000000000000000000000000000000', offShelf.order.tokenId), accounts.seller);
    const forged = await chain.listNew();
    const byStranger = signListOrder(KEYS.stranger, forged.order, chain.domain);
    const good2 = await chain.listNew();

    const fills: FillIn[] = [
      { ...good1, buyerOrderId: uid('B') },
      { ...cancelled, buyerOrderId: uid('B') },
      { ...offShelf, buyerOrderId: uid('B') },
      { order: forged.order, signature: byStranger, buyerOrderId: uid('B') },
      { ...good2, buyerOrderId: uid('B') },
    ];
    const receipt = await chain.send(batch(fills), accounts.operator);
    expect(receipt.outcomeStatus).toBe(0);
    expect(outcomes(receipt)).toEqual([
      { id: fills[0]!.buyerOrderId, executed: true },
      { id: fills[1]!.buyerOrderId, skipped: selectorOf('SellerOrderIdUsed') },
      { id: fills[2]!.buyerOrderId, skipped: selectorOf('NotOnShelf') },
      { id: fills[3]!.buyerOrderId, skipped: selectorOf('InvalidSigner') },
      { id: fills[4]!.buyerOrderId, executed: true },
    ]);
    expect(await ownerOf(good1.order.tokenId)).toBe(accounts.buyer.address);
    expect(await ownerOf(good2.order.tokenId)).toBe(accounts.buyer.address);
    for (const bad of [cancelled, offShelf, forged]) expect(await ownerOf(bad.order.tokenId)).toBe(accounts.seller.address);
    // A skipped fill wrote nothing: its buyer id is still free and the forged order is still open.
    expect(Number(await chain.exchange.orderState(orderArg(forged.order)))).toBe(0);
    const retry = await chain.send(batch([{ ...forged, buyerOrderId: fills[3]!.buyerOrderId }]), accounts.operator);
    expect(outcomes(retry)).toEqual([{ id: fills[3]!.buyerOrderId, executed: true }]);
    // The dry run of the whole batch returns how many fills it would execute.
    const again = await chain.listNew();
    const count = await batch([{ ...again, buyerOrderId: uid('B') }, { ...good1, buyerOrderId: uid('B') }]).call({ from: accounts.operator.address });
    expect(BigInt(count as bigint)).toBe(1n);
  });

  it('skips a token the seller transferred away and a second fill of the same order', async () => {
    const { accounts } = chain;
    const moved = await chain.listNew();
    await chain.send(chain.collectible.transferFrom(accounts.seller.address, accounts.stranger.address, moved.order.tokenId), accounts.seller);
    const twice = await chain.listNew();
    const fills: FillIn[] = [
      { ...moved, buyerOrderId: uid('B') },
      { ...twice, buyerOrderId: uid('B') },
      { ...twice, buyerOrderId: uid('B') },
    ];
    // The very same fill sent twice (one buyer order): the second is BuyerOrderIdUsed.
    fills.push({ ...fills[1]! });
    const receipt = await chain.send(batch(fills), accounts.operator);
    expect(outcomes(receipt)).toEqual([
      // transferFrom cleared the approval: the exchange sees the token off shelf.
      { id: fills[0]!.buyerOrderId, skipped: selectorOf('NotOnShelf') },
      { id: fills[1]!.buyerOrderId, executed: true },
      { id: fills[2]!.buyerOrderId, skipped: selectorOf('SellerOrderIdUsed') },
      { id: fills[1]!.buyerOrderId, skipped: selectorOf('BuyerOrderIdUsed') },
    ]);
    expect(await ownerOf(moved.order.tokenId)).toBe(accounts.stranger.address);
  });

  it('fills a buyerOrderId at most once inside one batch', async () => {
    const { accounts } = chain;
    const a = await chain.listNew();
    const b = await chain.listNew();
    const id = uid('B');
    const receipt = await chain.send(batch([{ ...a, buyerOrderId: id }, { ...b, buyerOrderId: id }]), accounts.operator);
    expect(outcomes(receipt)).toEqual([
      { id, executed: true },
      { id, skipped: selectorOf('BuyerOrderIdUsed') },
    ]);
    expect(await ownerOf(a.order.tokenId)).toBe(accounts.buyer.address);
    expect(await ownerOf(b.order.tokenId)).toBe(accounts.seller.address);
    // b is still open and fills later under a fresh buyer id.
    const later = await chain.send(batch([{ ...b, buyerOrderId: uid('B') }]), accounts.operator);
    expect(outcomes(later)).toHaveLength(1);
    expect(await ownerOf(b.order.tokenId)).toBe(accounts.buyer.address);
  });

  it('is operator only, and executeFill only callable by the exchange itself', async () => {
    const { accounts } = chain;
    const x = await chain.listNew();
    const fill = fillArg({ ...x, buyerOrderId: uid('B') });
    expect((await chain.revertOf(chain.exchange.executeOrders([fill]), accounts.stranger))?.name).toBe('NotOperator');
    expect((await chain.revertOf(chain.exchange.executeFill(fill), accounts.operator))?.name).toBe('NotSelf');
    expect(await chain.revertOf(chain.exchange.executeOrders([fill]), accounts.operator)).toBeNull();
  });

  it('costs less gas per fill in a batch of 10 than 10 single executeOrder calls', async () => {
    const { accounts } = chain;
    const singles = [];
    for (let i = 0; i < 10; i++) singles.push(await chain.listNew());
    let singleGas = 0n;
    for (const s of singles) {
      const r = (await chain.send(chain.exchange.executeOrder(orderArg(s.order), s.signature, accounts.buyer.address, uid('B')), accounts.operator)) as Receipt & { gasUsed: bigint };
      expect(r.outcomeStatus).toBe(0);
      singleGas += BigInt(r.gasUsed);
    }
    const batched = [];
    for (let i = 0; i < 10; i++) batched.push(await chain.listNew());
    const r = (await chain.send(batch(batched.map((b) => ({ ...b, buyerOrderId: uid('B') }))), accounts.operator)) as Receipt & { gasUsed: bigint };
    expect(outcomes(r).filter((o) => 'executed' in o)).toHaveLength(10);
    const perSingle = singleGas / 10n;
    const perBatched = BigInt(r.gasUsed) / 10n;
    console.log(`gas per fill: executeOrder ${perSingle}, executeOrders(10) ${perBatched}`);
    expect(perBatched).toBeLessThan(perSingle);
  });
});
