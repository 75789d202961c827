// Gas of one consignment fill on a real @xcfx/node dev chain: Exchange.executeOrders with N fills
// (each a fresh token minted to one of S sellers, approved to the exchange, signed; each buyer new
// or already holding a token), and single executeOrder calls. The node's execution of this gas
// bounds the market's settlement rate (bench/settlement.ts), so this is the figure to lower.
// Run: cd bench && node --import tsx fill-gas.ts   (BENCH_FILLS=30, BENCH_ROUNDS=3)
import { toBase32Address } from '../packages/protocol/src/address.ts';
import { signListOrder } from '../packages/contracts/src/order-signature.ts';
import { orderArg, startTestChain, uid, type Receipt } from '../packages/contracts/test/fixture.ts';

const N = Number(process.env.BENCH_FILLS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const chain = await startTestChain();
try {
  const { accounts } = chain;
  const sellers = Array.from({ length: 10 }, () => chain.freshAccount());
  // Fresh seller keys get CFX, so their approvals go through whether or not a sponsorship covers them.
  for (const s of sellers) await chain.conflux.cfx.sendTransaction({ from: accounts.owner.address, to: s.address, value: 10n ** 20n }).executed({ delta: 20, timeout: 30_000 });
  const listed = async (i: number) => {
    const seller = sellers[i % sellers.length]!;
    const tokenId = await chain.mint(seller);
    await chain.send(chain.collectible.approve(chain.deployed.exchange, tokenId), seller);
    const order = { seller: seller.hex, nftToken: chain.deployed.collectibleHex, tokenId, amount: 9900n, sellerOrderId: uid('S') };
    return { order, signature: signListOrder(seller.key, order, chain.domain) };
  };
  const perFill = (r: Receipt) => Number((r as Receipt & { gasUsed: bigint }).gasUsed) / N;
  for (let round = 0; round < ROUNDS; round++) {
    // New buyers (first token: a new balance slot) and then the same buyers again (balance slot exists).
    const buyers = Array.from({ length: N }, () => chain.freshAccount());
    for (const label of ['new buyers', 'returning buyers']) {
      const fills = [];
      for (let i = 0; i < N; i++) fills.push(await listed(i));
      const r = await chain.send(chain.exchange.executeOrders(fills.map((f, i) => ({ order: orderArg(f.order), signature: f.signature, buyer: buyers[i]!.address, buyerOrderId: uid('B') }))), accounts.operator);
      const executed = chain.events(r).filter((e) => e.name === 'OrderExecuted').length;
      if (executed !== N) throw new Error(`executed ${executed} of ${N}`);
      // Storage collateral (Conflux locks 1 CFX per 1,024 bytes of storage a transaction adds) and who paid it.
      const x = r as Receipt & { storageCollateralized: bigint; storageCoveredBySponsor: boolean };
      console.log(`round ${round + 1}, executeOrders(${N}), ${label}: ${perFill(r).toFixed(0)} gas per fill (${(r as Receipt & { gasUsed: bigint }).gasUsed} in all); storage collateralized ${Number(x.storageCollateralized) / N} bytes per fill (${x.storageCoveredBySponsor ? 'by the sponsor' : 'by the sender'})`);
    }
  }
  const one = await listed(0);
  const r = (await chain.send(chain.exchange.executeOrder(orderArg(one.order), one.signature, accounts.buyer.address, uid('B')), accounts.operator)) as Receipt & { gasUsed: bigint };
  console.log(`executeOrder (single, buyer holding tokens): ${r.gasUsed} gas; owner now ${toBase32Address(await chain.collectible.ownerOf(one.order.tokenId)) === accounts.buyer.address ? 'buyer' : 'NOT the buyer'}`);
} finally {
  await chain.stop();
}
