import crypto from 'node:crypto';
import { expect } from 'vitest';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import { signContent } from '../src/providers/payment/types.ts';
import { createDropRelease, type DropReleaseInput } from '../src/modules/drops/create-drop-release.ts';
import { mintPendingGoods, type Minter, type MintOutcome } from '../src/modules/drops/mint-batches.ts';
import { call, type TestApp } from './helpers.ts';
import { makeMarketApp, type FakeChain, type Trader } from './market-helpers.ts';

/**
 * Helpers of the drop (primary sale) API tests: a release on sale, createOrder {projectId, count},
 * sandbox notifies, and FakeMinter — the test double of the mint job's Minter (the real one,
 * chain/mint-job.ts, is covered by drops.chain.test.ts on an embedded node). It refuses to mint an
 * existing token id, like the contract, and can be told to fail batches.
 */
export async function makeDropApp(env: NodeJS.ProcessEnv = {}) {
  return makeMarketApp({ MAX_UNPAID_ORDERS: '1000', DROP_ATTEMPTS_PER_SECOND: '1000', ...env });
}

export async function makeDrop(t: TestApp, input: DropReleaseInput = {}) {
  return createDropRelease(t.ctx, null, { supply: 100, priceFen: 1000, ...input });
}

export function buy(t: TestApp, u: Trader, projectId: number, count?: number, headers: Record<string, string> = {}) {
  return call(t, '/payment/nftOrder/V1/createOrder', count === undefined ? { projectId } : { projectId, count }, { ...u.h, ...headers });
}

export async function stock(t: TestApp, projectId: number) {
  return t.ctx.db.kysely.selectFrom('drop_stock').selectAll().where('project_id', '=', projectId).executeTakeFirstOrThrow();
}

/** A signed sandbox notify for `orderNo` (as the sandbox provider posts it). */
export function sandboxNotify(t: TestApp, orderNo: string, tradeNo: string, fen: number) {
  const p = { out_trade_no: orderNo, trade_no: tradeNo, total_amount: `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`, trade_status: 'TRADE_SUCCESS', sign_type: 'HMAC-SHA256' };
  const params = { ...p, sign: crypto.createHmac('sha256', 'test-sandbox-secret').update(signContent(p)).digest('hex') };
  return t.app.inject({ method: 'POST', url: PaymentNotifyPaths.sandbox, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
}

/** Makes `b` an account verified with the same ID number as `a` (the identity digest they share). */
export async function sameIdentity(t: TestApp, a: Trader, b: Trader) {
  const row = await t.ctx.db.kysely.selectFrom('realname').select('id_digest').where('user_id', '=', a.userId).executeTakeFirstOrThrow();
  await t.ctx.db.kysely.updateTable('realname').set({ id_digest: row.id_digest }).where('user_id', '=', b.userId).execute();
}

export class FakeMinter implements Minter {
  readonly contract = 'cfx:acc7uawf5ubtnmezvhu9dhc6sghea0403y2dgpyfjp';
  /** token id → owner wallet */
  tokens = new Map<string, string>();
  txs = new Map<number, MintOutcome & { key: string; to: string[]; ids: string[] }>();
  keys = new Map<string, number>();
  /** Batches (more than one token) fail while this is set. */
  failBatches = false;
  /** Token ids whose mint always fails (a transaction reverting for another reason than an existing id). */
  failTokens = new Set<string>();
  private seq = 0;

  async submit(key: string, to: string[], tokenIds: string[]): Promise<number> {
    const known = this.keys.get(key);
    if (known) return known;
    const id = ++this.seq;
    this.keys.set(key, id);
    let outcome: MintOutcome;
    if ((this.failBatches && tokenIds.length > 1) || tokenIds.some((t) => this.tokens.has(t) || this.failTokens.has(t)) || new Set(tokenIds).size !== tokenIds.length) {
      outcome = { state: 'failed', txHash: null, error: 'reverted' };
    } else {
      tokenIds.forEach((t, i) => this.tokens.set(t, to[i]!));
      outcome = { state: 'confirmed', txHash: `0x${crypto.randomBytes(32).toString('hex')}`, error: null };
    }
    this.txs.set(id, { ...outcome, key, to, ids: tokenIds });
    return id;
  }
  async outcomes(txIds: number[]) {
    return new Map(txIds.map((id) => [id, this.txs.get(id)!] as const));
  }
  async ownerOf(tokenId: string) {
    return this.tokens.get(tokenId) ?? null;
  }
  /** Sizes of the transactions that minted something. */
  batchSizes() {
    return [...this.txs.values()].filter((t) => t.state === 'confirmed').map((t) => t.ids.length);
  }
}

/** Runs the job worker (fulfilment) and mint passes until nothing is pending. */
export async function fulfilAndMint(t: TestApp & { chain: FakeChain }, minter: FakeMinter) {
  for (let i = 0; i < 10; i++) {
    await t.ctx.jobs.runOnce();
    if ((await mintPendingGoods(t.ctx, minter)) === 0) break;
  }
  await t.ctx.jobs.runOnce();
}

export async function expectOk(r: { status: string; message: string }) {
  expect(r.status, r.message).toBe('000000');
}
