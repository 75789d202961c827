import crypto from 'node:crypto';
import { expect } from 'vitest';
import { signListOrder, verifyListOrder } from '@cfx/contracts/src/order-signature.ts';
import { sameAddress, toBase32Address, toHexAddress } from '@cfx/protocol/address.ts';
import { exchangeDomain, type Cip23Domain } from '@cfx/protocol/cip23.ts';
import type { Config } from '../src/config.ts';
import { ledgerProblems } from '../src/modules/ledger/ledger.ts';
import type { SettleRequest, SettlementChain, TokenEvent, TokenState, TxOutcome, CheckResult, OrderCancelledEvent, SellerOrderState } from '../src/modules/market/settlement-chain.ts';
import { API, call, makeApp, type TestApp } from './helpers.ts';
import { insertGoods, insertRelease, insertTrader, type Release, type Trader } from './fixtures/market-setup.ts';

/**
 * Helpers of the market API tests: users who pass the trading gate (inserted directly: the
 * accounts, KYC and wallet flows have their own tests), a release with minted collectibles, and
 * FakeChain — the test double of SettlementChain for the tests that run without a node (the real
 * chain path is covered by market.chain.test.ts on an embedded node).
 */
export async function makeMarketApp(env: NodeJS.ProcessEnv = {}, overrides: Partial<Config> = {}): Promise<TestApp & { chain: FakeChain }> {
  const t = await makeApp(overrides, { MARKET_JOBS: '0', PAYMENT_SANDBOX_SECRET: 'test-sandbox-secret', ...env });
  const chain = new FakeChain();
  t.ctx.market!.attachSettlement(chain);
  return Object.assign(t, { chain });
}

export type { Trader, Release } from './fixtures/market-setup.ts';

/** A user who passes the trading gate (or fails it as `kind` says). */
export const makeTrader = (t: TestApp, kind: 'trader' | 'no-realname' | 'no-wallet' | 'minor' = 'trader') => insertTrader(t.ctx, kind);
export const makeRelease = (t: TestApp, holdingDays = 0) => insertRelease(t.ctx, holdingDays);

let tokenSeq = 1000;
/** A collectible of `release` owned by `owner`, minted (token id registered with FakeChain as owned by the owner's wallet). */
export async function makeGoods(t: TestApp & { chain?: FakeChain }, release: Release, owner: Trader, opts: { minted?: boolean; acquiredAt?: number } = {}) {
  const tokenId = ++tokenSeq + Math.floor(Math.random() * 1e6) * 10_000;
  const minted = opts.minted ?? true;
  const goodsId = await insertGoods(t.ctx, release, owner.userId, minted ? tokenId : null, { acquiredAt: opts.acquiredAt });
  if (minted && t.chain) t.chain.owners.set(String(tokenId), owner.address);
  return { goodsId, tokenId: String(tokenId) };
}

/**
 * preOpenSale → the wallet cancels the earlier orders still open on chain (pendingCancels), approves
 * the exchange (FakeChain) and signs → openSale, as the web flow does. Returns what it cancelled too.
 */
export async function listForSale(t: TestApp & { chain: FakeChain }, seller: Trader, goodsId: number, price: number) {
  const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price }, seller.h);
  expect(pre.status, pre.message).toBe('000000');
  const cancelled = pre.data.pendingCancels as string[];
  cancelOnChain(t, seller, cancelled);
  t.chain.approve(pre.data.tokenId, seller.address);
  const signature = signTyped(seller, pre.data);
  const r = await call(t, '/goods/v1/openSale', { goodsId, price, sellerOrderId: pre.data.sellerOrderId, signature }, seller.h);
  expect(r.status, r.message).toBe('000000');
  return { ...r.data, tokenId: pre.data.tokenId as string, sellerOrderId: pre.data.sellerOrderId as string, signature, cancelled };
}

/** Signs preOpenSale's typed data as Fluent would (same digest, v = 0/1). */
export function signTyped(signer: Trader, pre: { typedData: { domain: Cip23Domain; message: any } }): string {
  return signListOrder(signer.key, pre.typedData.message, pre.typedData.domain);
}

export async function createOrderFor(t: TestApp, buyer: Trader, goodsId: number) {
  return call(t, '/payment/nftOrder/V1/createOrder', { goodsId }, buyer.h);
}

export async function get(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: API + path, headers: { channel: 'pc', ...headers } });
  return { http: res.statusCode, raw: res.body, type: String(res.headers['content-type'] ?? ''), ...(res.headers['content-type']?.toString().includes('json') ? res.json() : {}) } as any;
}

export async function balance(t: TestApp, u: Trader): Promise<number> {
  const r = await get(t, '/payment/account/V1/queryBalance', u.h);
  return r.data.availableFen;
}

export async function topup(t: TestApp, u: Trader, amount: number) {
  const r = await call(t, '/payment/sandbox/topup', { amount }, u.h);
  expect(r.status, r.message).toBe('000000');
}

/** The ledger invariants: every transaction and the whole ledger sum to zero, balances match, escrow = paid orders. */
export async function expectLedgerBalanced(t: TestApp) {
  expect(await ledgerProblems(t.ctx.db.kysely)).toEqual([]);
}

export async function runJobs(t: TestApp) {
  await t.ctx.jobs.runOnce();
}

export async function orderStatus(t: TestApp, orderNo: string) {
  return (await t.ctx.db.kysely.selectFrom('orders').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status;
}

/** The seller's wallet sends Exchange.cancelOrder for each id (FakeChain), as the web flow does before signing. */
export function cancelOnChain(t: TestApp & { chain: FakeChain }, seller: Trader, sellerOrderIds: string[]) {
  for (const id of sellerOrderIds) t.chain.cancelOrder(seller.address, id);
}

/**
 * The test double of SettlementChain: token owners and approvals in memory, executeOrder
 * checked like the contract (buyer id and seller order id single use, signature, approval, owner;
 * a filled or cancelled seller order id → SellerOrderIdUsed), "mined"
 * asynchronously after submit. `nextOutcome` forces a failure (e.g. a lost transaction).
 * `cancelOrder` is the seller's wallet calling Exchange.cancelOrder; like the indexer, it reports
 * an OrderCancelled event unless `quietCancels` (then only a read of the state tells).
 */
export class FakeChain implements SettlementChain {
  readonly networkId = 1029;
  readonly collectibleHex = `0x8${crypto.randomBytes(20).toString('hex').slice(1)}`;
  readonly exchangeHex = `0x8${crypto.randomBytes(20).toString('hex').slice(1)}`;
  readonly collectible = toBase32Address(this.collectibleHex, 1029);
  readonly exchange = toBase32Address(this.exchangeHex, 1029);
  readonly explorerUrl = 'https://confluxscan.io';
  owners = new Map<string, string>();
  approvals = new Map<string, string>();
  buyerIds = new Set<string>();
  /** Seller order ids consumed on chain, keyed `<seller hex>|<id>`: filled or cancelled. */
  sellerIds = new Map<string, 'filled' | 'cancelled'>();
  quietCancels = false;
  txs = new Map<number, TxOutcome & { key: string }>();
  keys = new Map<string, number>();
  submitted: SettleRequest[] = [];
  /** Forces the outcome of the next submitted transaction ('lost' = failed although it would succeed). */
  nextOutcome: 'lost' | undefined;
  /** When false, submitted transactions stay pending until `mine()`. */
  autoMine = true;
  down = false;
  private txListeners = new Set<(id: number) => void>();
  private tokenListeners = new Set<(e: TokenEvent[]) => void>();
  private cancelListeners = new Set<(e: OrderCancelledEvent[]) => void>();
  private seq = 0;

  domain(): Cip23Domain {
    return exchangeDomain(1029, this.exchangeHex);
  }
  approve(tokenId: string, owner: string) {
    if (!sameAddress(this.owners.get(tokenId) ?? '', owner)) throw new Error('only the owner approves');
    this.approvals.set(tokenId, this.exchange);
  }
  revoke(tokenId: string) {
    this.approvals.delete(tokenId);
  }
  transfer(tokenId: string, to: string) {
    this.owners.set(tokenId, toBase32Address(to, 1029));
    this.approvals.delete(tokenId);
  }
  private sellerKey(seller: string, sellerOrderId: string) {
    return `${toHexAddress(seller).toLowerCase()}|${sellerOrderId}`;
  }
  /** Exchange.cancelOrder(sellerOrderId) from `seller`: no-op when already cancelled, refused when filled. */
  cancelOrder(seller: string, sellerOrderId: string) {
    const key = this.sellerKey(seller, sellerOrderId);
    const state = this.sellerIds.get(key);
    if (state === 'filled') throw new Error('SellerOrderIdUsed');
    if (state === 'cancelled') return;
    this.sellerIds.set(key, 'cancelled');
    if (!this.quietCancels) for (const l of this.cancelListeners) l([{ seller: toBase32Address(toHexAddress(seller), 1029), sellerOrderId }]);
  }
  async sellerOrderState(seller: string, sellerOrderId: string): Promise<SellerOrderState> {
    if (this.down) throw new Error('node down');
    return this.sellerIds.get(this.sellerKey(seller, sellerOrderId)) ?? 'open';
  }
  emit(events: TokenEvent[]) {
    for (const l of this.tokenListeners) l(events);
  }
  async tokenState(tokenId: string): Promise<TokenState> {
    if (this.down) throw new Error('node down');
    return { owner: this.owners.get(tokenId) ?? null, approved: this.approvals.get(tokenId) ?? null };
  }
  private verdict(req: SettleRequest): CheckResult {
    // The contract's order: the buyer order id first (a fill sent again), then the seller order id (which
    // also stands for the order hash: the hash commits to it).
    if (this.buyerIds.has(req.buyerOrderId)) return { ok: false, permanent: false, reason: 'BuyerOrderIdUsed' };
    if (this.sellerIds.has(this.sellerKey(req.order.seller, req.order.sellerOrderId))) return { ok: false, permanent: true, reason: 'SellerOrderIdUsed' };
    if (!verifyListOrder(req.signature, req.order, this.domain())) return { ok: false, permanent: true, reason: 'InvalidSigner' };
    if (this.approvals.get(String(req.order.tokenId)) !== this.exchange) return { ok: false, permanent: true, reason: 'NotOnShelf' };
    if (!sameAddress(this.owners.get(String(req.order.tokenId)) ?? '', req.order.seller)) return { ok: false, permanent: true, reason: 'ERC721IncorrectOwner' };
    return { ok: true };
  }
  async check(req: SettleRequest): Promise<CheckResult> {
    if (this.down) return { ok: false, permanent: false, reason: 'chain unreachable: node down' };
    return this.verdict(req);
  }
  async submit(req: SettleRequest): Promise<number> {
    const existing = this.keys.get(req.key);
    if (existing) return existing;
    const id = ++this.seq;
    this.keys.set(req.key, id);
    this.submitted.push(req);
    this.txs.set(id, { key: req.key, state: 'pending', txHash: null, error: null });
    const forced = this.nextOutcome;
    this.nextOutcome = undefined;
    const run = () => {
      const v = forced === 'lost' ? { ok: false as const, permanent: false, reason: 'no receipt after the retry limit' } : this.verdict(req);
      const txHash = `0x${crypto.randomBytes(32).toString('hex')}`;
      if (v.ok) {
        this.buyerIds.add(req.buyerOrderId);
        this.sellerIds.set(this.sellerKey(req.order.seller, req.order.sellerOrderId), 'filled');
        this.owners.set(String(req.order.tokenId), toBase32Address(toHexAddress(req.buyer), 1029));
        this.approvals.delete(String(req.order.tokenId));
        this.txs.set(id, { key: req.key, state: 'confirmed', txHash, error: null });
      } else {
        this.txs.set(id, { key: req.key, state: 'failed', txHash, error: v.reason });
      }
      for (const l of this.txListeners) l(id);
    };
    this.pendingRuns.push(run);
    if (this.autoMine) setImmediate(() => this.mine());
    return id;
  }
  private pendingRuns: (() => void)[] = [];
  mine() {
    const runs = this.pendingRuns;
    this.pendingRuns = [];
    for (const r of runs) r();
  }
  async outcome(txId: number): Promise<TxOutcome> {
    const t = this.txs.get(txId);
    return t ? { state: t.state, txHash: t.txHash, error: t.error } : { state: 'failed', txHash: null, error: 'unknown' };
  }
  async executed(buyerOrderId: string) {
    return this.buyerIds.has(buyerOrderId);
  }
  onTxDone(l: (id: number) => void) {
    this.txListeners.add(l);
    return () => void this.txListeners.delete(l);
  }
  onTokenEvents(l: (e: TokenEvent[]) => void) {
    this.tokenListeners.add(l);
    return () => void this.tokenListeners.delete(l);
  }
  onOrdersCancelled(l: (e: OrderCancelledEvent[]) => void) {
    this.cancelListeners.add(l);
    return () => void this.cancelListeners.delete(l);
  }
}
