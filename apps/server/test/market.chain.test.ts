import { spawn, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format } from 'js-conflux-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signListOrder } from '@cfx/contracts/src/order-signature.ts';
import { sameAddress, toBase32Address } from '@cfx/protocol/address.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { ledgerProblems, balanceOf, Account } from '../src/modules/ledger/ledger.ts';
import { chainSettlement } from '../src/modules/market/chain-settlement.ts';
import { call } from './helpers.ts';
import { insertGoods, insertRelease, insertTrader, type Release } from './fixtures/market-setup.ts';
import { listOnChain, mintTo, walletOf } from './fixtures/market-chain-flow.ts';

/**
 * The consignment market on a real embedded @xcfx/node: a full resale settled by
 * Exchange.executeOrders, a token moved away on chain (listing invalidated; a paid order refunded),
 * one batch with a fill the chain refuses (the others complete, that one is refunded),
 * and SIGKILL after payment / after the settlement transaction was sent.
 */
async function start(dataDir: string, env: Record<string, string> = {}): Promise<App> {
  const config = loadConfig(
    { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', CHAIN_RECEIPT_INTERVAL_MS: '200', CHAIN_INDEXER_INTERVAL_MS: '100', SETTLE_CHECK_MS: '2000', ...env },
    { dataDir, serveWeb: false },
  );
  return buildApp(config, { logger: false });
}

async function waitFor<T>(f: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const status = async (t: App, orderNo: string) => (await t.ctx.db.kysely.selectFrom('orders').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status;
const ownerOf = async (t: App, tokenId: number) => toBase32Address(await t.ctx.chain!.contracts.collectible.ownerOf(BigInt(tokenId)), 1029);

describe('resale on the embedded chain', () => {
  let t: App;
  let release: Release;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-market-chain-'));
  beforeAll(async () => {
    t = await start(dataDir);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    release = await insertRelease(t.ctx);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('mint → approve + sign → openSale → createOrder → sandbox pay + notify → executeOrder on chain → buyer owns it, seller credited', async () => {
    const { ctx } = t;
    const chain = ctx.chain!;
    const seller = await insertTrader(ctx);
    const buyer = await insertTrader(ctx);
    const tokenId = 5001;
    await mintTo(t, seller.address, tokenId);
    const goodsId = await insertGoods(ctx, release, seller.userId, tokenId, { contract: chain.collectible });
    const wallet = await walletOf(t, seller);
    expect(await wallet.balanceCfx()).toBe(0n);

    // not approved yet: openSale is refused by the chain check
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 12_300 }, seller.h);
    expect(pre.data).toMatchObject({ approved: false, exchange: chain.exchange, exchangeHex: chain.exchangeHex, tokenId: String(tokenId) });
    const signature = signListOrder(seller.key, pre.data.typedData.message, pre.data.typedData.domain);
    const early = await call(t, '/goods/v1/openSale', { goodsId, price: 12_300, sellerOrderId: pre.data.sellerOrderId, signature }, seller.h);
    expect(early).toMatchObject({ status: '1014', message: 'please approve the exchange contract in your wallet first' });
    await wallet.approve(tokenId, chain.exchange); // sponsored: the seller holds 0 CFX
    expect(await wallet.balanceCfx()).toBe(0n);
    const open = await call(t, '/goods/v1/openSale', { goodsId, price: 12_300, sellerOrderId: pre.data.sellerOrderId, signature }, seller.h);
    expect(open).toMatchObject({ status: '000000', data: { status: 'on_sale', priceFen: 12_300 } });

    const order = await call(t, '/payment/nftOrder/V1/createOrder', { goodsId }, buyer.h);
    expect(order.status).toBe('000000');
    const orderNo = order.data.orderNo;
    const pay = await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'sandbox' }, buyer.h);
    expect(pay.data.status).toBe('paying');
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    expect(await (await fetch(base + pay.data.payUrl)).text()).toContain('沙箱收银台');
    const ticket = new URL(base + pay.data.payUrl).searchParams.get('t');
    const confirm = await call(t, '/payment/sandbox/confirm', { t: ticket, action: 'pay' });
    expect(confirm.data.result).toBe('paid');

    await waitFor(async () => (await status(t, orderNo)) === 'completed', 60_000);
    expect(await ownerOf(t, tokenId)).toBe(buyer.address);
    const detail = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, buyer.h);
    expect(detail.data.timeline.map((e: any) => e.status)).toEqual(['created', 'paying', 'paid', 'settling', 'completed']);
    const tx = await ctx.db.kysely.selectFrom('chain_txs').innerJoin('orders', 'orders.chain_tx_id', 'chain_txs.id').selectAll('chain_txs').where('orders.order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(tx).toMatchObject({ status: 'confirmed', kind: 'settle' });
    expect(tx.idempotency_key).toMatch(/^settle-batch:[0-9a-f]{40}$/);
    expect(detail.data.txHash).toBe(tx.tx_hash);
    // the chain says: filled for this order number
    expect(await chain.contracts.exchange.buyerOrderIdUsed(format.keccak256(Buffer.from(orderNo, 'utf8')))).toBe(true);
    // money: seller gets price − 5%
    expect(await balanceOf(ctx.db.kysely, Account.user(seller.userId))).toBe(12_300 - 615);
    expect(await ledgerProblems(ctx.db.kysely)).toEqual([]);
    const g = await ctx.db.kysely.selectFrom('goods').select(['owner_user_id', 'status']).where('id', '=', goodsId).executeTakeFirstOrThrow();
    expect(Number(g.owner_user_id)).toBe(buyer.userId);
    // the indexer records the OrderExecuted of this order
    const rec = await waitFor(async () => (await ctx.db.kysely.selectFrom('chain_records').selectAll().where('event', '=', 'OrderExecuted').where('tx_hash', '=', tx.tx_hash!).executeTakeFirst()) ?? false);
    expect(rec.data).toContain(orderNo);
    // ownership after the sale is not disturbed by the watcher; the buyer can list it again
    await new Promise((r) => setTimeout(r, 500));
    expect((await call(t, '/goods/v1/list/home', {}, buyer.h)).data.list[0]).toMatchObject({ id: goodsId });
  });

  it('a token moved away on chain: its listing becomes unbuyable, and a paid order is refunded', async () => {
    const { ctx } = t;
    const chain = ctx.chain!;
    const seller = await insertTrader(ctx);
    const buyer = await insertTrader(ctx);
    const elsewhere = toBase32Address(`0x1${'ab'.repeat(19)}cd`.slice(0, 42), 1029);
    const wallet = await walletOf(t, seller);

    // A: listed, then transferred away → the indexer's Transfer invalidates it at once
    await mintTo(t, seller.address, 5002);
    const a = await insertGoods(ctx, release, seller.userId, 5002, { contract: chain.collectible });
    await listOnChain(t, seller, a, 5002, 10_000);
    await wallet.transfer(5002, elsewhere);
    await waitFor(async () => (await ctx.db.kysely.selectFrom('listings').select('status').where('goods_id', '=', a).where('status', '=', 'invalid').executeTakeFirst()) ?? false, 30_000);
    expect(await call(t, '/payment/nftOrder/V1/createOrder', { goodsId: a }, buyer.h)).toMatchObject({ status: '1013', message: 'this collectible is no longer on sale' });

    // B: paid, then transferred away before settlement → the settlement fails for good → refund
    await mintTo(t, seller.address, 5003);
    const b = await insertGoods(ctx, release, seller.userId, 5003, { contract: chain.collectible });
    await listOnChain(t, seller, b, 5003, 10_000);
    await call(t, '/payment/sandbox/topup', { amount: 10_000 }, buyer.h);
    const order = await call(t, '/payment/nftOrder/V1/createOrder', { goodsId: b }, buyer.h);
    const orderNo = order.data.orderNo;
    await ctx.jobs.stop();
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, buyer.h)).status).toBe('000000');
    expect(await balanceOf(ctx.db.kysely, Account.user(buyer.userId))).toBe(0);
    const moved = await wallet.transfer(5003, elsewhere);
    await waitFor(async () => (await ctx.db.kysely.selectFrom('chain_records').select('id').where('tx_hash', '=', moved.transactionHash).executeTakeFirst()) ?? false, 30_000);
    await new Promise((r) => setTimeout(r, 300));
    // a paid order's listing is left to its settlement (no race over the money)
    expect(await status(t, orderNo)).toBe('paid');
    await ctx.jobs.start();
    await waitFor(async () => (await status(t, orderNo)) === 'refunded', 60_000);
    expect(await balanceOf(ctx.db.kysely, Account.user(buyer.userId))).toBe(10_000);
    expect(await balanceOf(ctx.db.kysely, Account.user(seller.userId))).toBe(0);
    expect(sameAddress(await ownerOf(t, 5003), elsewhere)).toBe(true);
    const d = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, buyer.h);
    expect(d.data.failReason).toMatch(/^settlement failed: (NotOnShelf|ERC721IncorrectOwner)$/);
    expect((await ctx.db.kysely.selectFrom('listings').select('status').where('goods_id', '=', b).orderBy('id', 'desc').executeTakeFirstOrThrow()).status).toBe('invalid');
    expect(await ledgerProblems(ctx.db.kysely)).toEqual([]);
  });

  it('one executeOrders batch with a fill the chain refuses: the good orders complete once, the refused one is refunded once', async () => {
    const { ctx } = t;
    const chain = ctx.chain!;
    // A wide gathering window, so that the three settlements surely share one transaction.
    ctx.market!.attachSettlement(await chainSettlement(chain, { batch: 30, batchWaitMs: 300 }));
    const seller = await insertTrader(ctx);
    const wallet = await walletOf(t, seller);
    const sales: { tokenId: number; goodsId: number; buyer: Awaited<ReturnType<typeof insertTrader>>; orderNo: string; sellerOrderId: string }[] = [];
    for (const tokenId of [5201, 5202, 5203]) {
      await mintTo(t, seller.address, tokenId);
      const goodsId = await insertGoods(ctx, release, seller.userId, tokenId, { contract: chain.collectible });
      const { listingId } = await listOnChain(t, seller, goodsId, tokenId, 10_000);
      const sellerOrderId = (await ctx.db.kysely.selectFrom('listings').select('seller_order_id').where('id', '=', listingId).executeTakeFirstOrThrow()).seller_order_id;
      const buyer = await insertTrader(ctx);
      await call(t, '/payment/sandbox/topup', { amount: 10_000 }, buyer.h);
      const order = await call(t, '/payment/nftOrder/V1/createOrder', { goodsId }, buyer.h);
      expect(order.status).toBe('000000');
      sales.push({ tokenId, goodsId, buyer, orderNo: order.data.orderNo, sellerOrderId });
    }
    await ctx.jobs.stop();
    for (const s of sales) expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: s.orderNo, method: 'balance' }, s.buyer.h)).status).toBe('000000');
    // The seller burns the middle order's id on chain after it was paid: its fill will be refused.
    const bad = sales[1]!;
    await wallet.cancelOrder(bad.sellerOrderId);
    expect(await ctx.market!.settlement!.sellerOrderState(seller.address, bad.sellerOrderId)).toBe('cancelled');
    await ctx.jobs.start();
    const final = async (orderNo: string) => ['completed', 'refunded'].includes(await status(t, orderNo));
    for (const s of sales) await waitFor(() => final(s.orderNo), 60_000);

    const orders = await ctx.db.kysely.selectFrom('orders').select(['order_no', 'status', 'chain_tx_id', 'fail_reason']).where('order_no', 'in', sales.map((s) => s.orderNo)).execute();
    const byNo = new Map(orders.map((o) => [o.order_no, o]));
    // one transaction for the three fills
    expect(new Set(orders.map((o) => Number(o.chain_tx_id))).size).toBe(1);
    const tx = await ctx.db.kysely.selectFrom('chain_txs').selectAll().where('id', '=', Number(orders[0]!.chain_tx_id)).executeTakeFirstOrThrow();
    expect(tx).toMatchObject({ status: 'confirmed', kind: 'settle' });
    expect(byNo.get(sales[0]!.orderNo)!.status).toBe('completed');
    expect(byNo.get(sales[2]!.orderNo)!.status).toBe('completed');
    expect(byNo.get(bad.orderNo)).toMatchObject({ status: 'refunded', fail_reason: 'settlement failed: SellerOrderIdUsed' });
    expect(await ownerOf(t, sales[0]!.tokenId)).toBe(sales[0]!.buyer.address);
    expect(await ownerOf(t, sales[2]!.tokenId)).toBe(sales[2]!.buyer.address);
    expect(await ownerOf(t, bad.tokenId)).toBe(seller.address);
    // money moved once per order: settle for the good ones, refund for the bad one
    for (const s of sales) {
      const ids = (await ctx.db.kysely.selectFrom('ledger_txns').select('id').where('order_no', '=', s.orderNo).orderBy('id').execute()).map((r) => r.id);
      expect(ids).toEqual([`pay:balance:${s.orderNo}`, s === bad ? `refund:${s.orderNo}` : `settle:${s.orderNo}`]);
      expect(await ctx.db.kysely.selectFrom('deals').select('id').where('order_no', '=', s.orderNo).execute()).toHaveLength(s === bad ? 0 : 1);
    }
    expect(await balanceOf(ctx.db.kysely, Account.user(bad.buyer.userId))).toBe(10_000);
    expect(await balanceOf(ctx.db.kysely, Account.user(sales[0]!.buyer.userId))).toBe(0);
    expect(await balanceOf(ctx.db.kysely, Account.user(seller.userId))).toBe(2 * 9_500);
    expect((await ctx.db.kysely.selectFrom('listings').select('status').where('goods_id', '=', bad.goodsId).orderBy('id', 'desc').executeTakeFirstOrThrow()).status).toBe('invalid');
    expect(await ledgerProblems(ctx.db.kysely)).toEqual([]);
    // Running the jobs again changes nothing (each order's job is done; a second completion or refund is refused).
    await new Promise((r) => setTimeout(r, 500));
    expect(await ctx.db.kysely.selectFrom('ledger_txns').select('id').where('order_no', 'in', sales.map((s) => s.orderNo)).execute()).toHaveLength(6);
  });

  it('a batch that fails as a whole (out of gas): its orders are dry-run, resubmitted in a new batch and complete once', async () => {
    const { ctx } = t;
    const chain = ctx.chain!;
    const seller = await insertTrader(ctx);
    const buyer = await insertTrader(ctx);
    const tokenId = 5301;
    await mintTo(t, seller.address, tokenId);
    const goodsId = await insertGoods(ctx, release, seller.userId, tokenId, { contract: chain.collectible });
    await listOnChain(t, seller, goodsId, tokenId, 10_000);
    await call(t, '/payment/sandbox/topup', { amount: 10_000 }, buyer.h);
    const orderNo = (await call(t, '/payment/nftOrder/V1/createOrder', { goodsId }, buyer.h)).data.orderNo as string;
    // The next settlement batch gets far too little gas: the whole transaction fails on chain.
    let starved = 0;
    const off = chain.queue.presetLimits((_to, data) => {
      if (starved > 0 || !data.includes(Buffer.from(orderNo, 'utf8').toString('hex'))) return undefined;
      starved++;
      return { gas: 60_000n, storageLimit: 2048n };
    });
    try {
      expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, buyer.h)).status).toBe('000000');
      await waitFor(async () => (await status(t, orderNo)) === 'completed', 60_000);
    } finally {
      off();
    }
    expect(starved).toBe(1);
    const txs = await ctx.db.kysely.selectFrom('chain_txs').select(['status', 'data']).where('kind', '=', 'settle').execute();
    const mine = txs.filter((x) => x.data.includes(Buffer.from(orderNo, 'utf8').toString('hex')));
    expect(mine.map((x) => x.status).sort()).toEqual(['confirmed', 'failed']);
    const o = await ctx.db.kysely.selectFrom('orders').select(['settle_attempt']).where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(Number(o.settle_attempt)).toBe(1);
    expect(await ownerOf(t, tokenId)).toBe(buyer.address);
    expect((await ctx.db.kysely.selectFrom('ledger_txns').select('id').where('order_no', '=', orderNo).orderBy('id').execute()).map((r) => r.id)).toEqual([`pay:balance:${orderNo}`, `settle:${orderNo}`]);
    expect(await ctx.db.kysely.selectFrom('deals').select('id').where('order_no', '=', orderNo).execute()).toHaveLength(1);
    expect(await ledgerProblems(ctx.db.kysely)).toEqual([]);
  });
});

describe('an old listing signature can never fill (#9)', () => {
  let t: App;
  let release: Release;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-market-cancel-'));
  beforeAll(async () => {
    t = await start(dataDir);
    release = await insertRelease(t.ctx);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('closed and cancelled on chain: executeOrder of the old order reverts with SellerOrderIdUsed even after the seller approves the exchange again', async () => {
    const { ctx } = t;
    const chain = ctx.chain!;
    const settlement = ctx.market!.settlement!;
    const seller = await insertTrader(ctx);
    const buyer = await insertTrader(ctx);
    const tokenId = 5101;
    await mintTo(t, seller.address, tokenId);
    const goodsId = await insertGoods(ctx, release, seller.userId, tokenId, { contract: chain.collectible });
    const wallet = await walletOf(t, seller);
    const old = await listOnChain(t, seller, goodsId, tokenId, 10_000);
    const oldRow = await ctx.db.kysely.selectFrom('listings').selectAll().where('id', '=', old.listingId).executeTakeFirstOrThrow();
    const oldOrder = { seller: seller.address, nftToken: chain.collectibleHex, tokenId: String(tokenId), amount: 10_000, sellerOrderId: oldRow.seller_order_id };
    const execute = (buyerOrderId: string) => ({ key: `test:${buyerOrderId}`, order: oldOrder, signature: oldRow.signature!, buyer: buyer.address, buyerOrderId });

    // Off shelf the old way only (close + approve(0)): re-approving the exchange revives the old price.
    const closed = await call(t, '/goods/v1/closeSale', { goodsId }, seller.h);
    expect(closed.data.cancel).toEqual({ exchange: chain.exchange, exchangeHex: chain.exchangeHex, sellerOrderId: oldRow.seller_order_id });
    await wallet.approve(tokenId, closed.data.approveZero.to);
    await wallet.approve(tokenId, chain.exchange);
    expect(await settlement.check(execute('MOcancel1'))).toEqual({ ok: true });
    expect(await settlement.sellerOrderState(seller.address, oldRow.seller_order_id)).toBe('open');

    // So the platform refuses a new listing while that order is open on chain (1019).
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 20_000 }, seller.h);
    expect(pre.data.pendingCancels).toEqual([oldRow.seller_order_id]);
    const signature = signListOrder(seller.key, pre.data.typedData.message, pre.data.typedData.domain);
    expect(await call(t, '/goods/v1/openSale', { goodsId, price: 20_000, sellerOrderId: pre.data.sellerOrderId, signature }, seller.h)).toMatchObject({ status: '1019' });

    // The seller's wallet cancels it (sponsored: 0 CFX). The exchange is still approved, yet the old order is dead.
    await wallet.cancelOrder(oldRow.seller_order_id);
    expect(await wallet.balanceCfx()).toBe(0n);
    expect(await settlement.sellerOrderState(seller.address, oldRow.seller_order_id)).toBe('cancelled');
    expect(await settlement.check(execute('MOcancel2'))).toEqual({ ok: false, permanent: true, reason: 'SellerOrderIdUsed' });
    // mined for real by the operator (in an executeOrders batch): the fill is skipped, the token stays with the seller
    const txId = await settlement.submit(execute('MOcancel3'));
    const row = await chain.queue.waitFor(txId);
    expect(row.status).toBe('confirmed');
    expect(await settlement.outcome(txId, 'MOcancel3')).toMatchObject({ state: 'failed', error: 'fill skipped: SellerOrderIdUsed', skipped: { reason: 'SellerOrderIdUsed', permanent: true } });
    expect(await ownerOf(t, tokenId)).toBe(seller.address);
    // the indexer's OrderCancelled marks the listing
    await waitFor(async () => (await ctx.db.kysely.selectFrom('listings').select('chain_cancelled_at').where('id', '=', old.listingId).executeTakeFirstOrThrow()).chain_cancelled_at !== null, 30_000);
    const rec = await ctx.db.kysely.selectFrom('chain_records').selectAll().where('event', '=', 'OrderCancelled').execute();
    expect(rec.some((r) => r.data.includes(oldRow.seller_order_id) && sameAddress(r.from_address!, seller.address))).toBe(true);

    // The refused draft was signed too: it is cancelled the same way, then the new listing goes live at the new price.
    const again = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 20_000 }, seller.h);
    expect(again.data.pendingCancels).toEqual([pre.data.sellerOrderId]);
    expect(again.data.approved).toBe(true);
    await wallet.cancelOrder(pre.data.sellerOrderId);
    const sig2 = signListOrder(seller.key, again.data.typedData.message, again.data.typedData.domain);
    expect(await call(t, '/goods/v1/openSale', { goodsId, price: 20_000, sellerOrderId: again.data.sellerOrderId, signature: sig2 }, seller.h)).toMatchObject({ status: '000000', data: { status: 'on_sale', priceFen: 20_000 } });
    expect(await settlement.check(execute('MOcancel4'))).toMatchObject({ ok: false, reason: 'SellerOrderIdUsed' });
  });
});

describe('crash safety of settlement', () => {
  for (const phase of ['paid', 'sent'] as const) {
    it(`SIGKILL ${phase === 'paid' ? 'after payment, before settlement' : 'after the settlement transaction was sent'}: after restart it settles exactly once and the ledger balances`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-market-crash-'));
      const tokenId = phase === 'paid' ? 8101 : 8102;
      try {
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/market-crash-runner.ts'), phase, String(tokenId)], {
          env: { ...process.env, DATA_DIR: dataDir, CHAIN_RECEIPT_INTERVAL_MS: '200' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        const signal = await new Promise((r) => child.once('exit', (_c, s) => r(s)));
        expect(signal).toBe('SIGKILL');
        const m = /HALTED (\{.*\})/.exec(out);
        expect(m).toBeTruthy();
        const info = JSON.parse(m![1]!) as { orderNo: string; tokenId: number; buyer: string; buyerUserId: number; sellerUserId: number; goodsId: number };
        await waitFor(async () => !execSync('ps -eo args').toString().includes(dataDir) || undefined, 30_000).catch(() => undefined);

        const t = await start(dataDir);
        try {
          const { ctx } = t;
          await waitFor(async () => (await status(t, info.orderNo)) === 'completed', 90_000);
          expect(await ownerOf(t, tokenId)).toBe(info.buyer);
          const txs = await ctx.db.kysely.selectFrom('chain_txs').select(['idempotency_key', 'status']).where('kind', '=', 'settle').execute();
          expect(txs).toEqual([{ idempotency_key: expect.stringMatching(/^settle-batch:/), status: 'confirmed' }]);
          expect(await ctx.db.kysely.selectFrom('payments').select('id').where('order_no', '=', info.orderNo).execute()).toHaveLength(1);
          expect(await ctx.db.kysely.selectFrom('deals').select('id').where('order_no', '=', info.orderNo).execute()).toHaveLength(1);
          expect((await ctx.db.kysely.selectFrom('ledger_txns').select('id').where('order_no', '=', info.orderNo).orderBy('id').execute()).map((r) => r.id)).toEqual([`pay:balance:${info.orderNo}`, `settle:${info.orderNo}`]);
          expect(await balanceOf(ctx.db.kysely, Account.user(info.sellerUserId))).toBe(9500);
          expect(await balanceOf(ctx.db.kysely, Account.user(info.buyerUserId))).toBe(0);
          expect(await ledgerProblems(ctx.db.kysely)).toEqual([]);
          const g = await ctx.db.kysely.selectFrom('goods').select('owner_user_id').where('id', '=', info.goodsId).executeTakeFirstOrThrow();
          expect(Number(g.owner_user_id)).toBe(info.buyerUserId);
        } finally {
          await t.close();
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }, 180_000);
  }
});
