import crypto from 'node:crypto';
import { expect } from 'vitest';
import { verifyConsume, signConsume } from '@cfx/contracts/src/consume-signature.ts';
import { sameAddress, toBase32Address, toHexAddress, ZERO_HEX_ADDRESS } from '@cfx/protocol/address.ts';
import { collectibleDomain, type Consume } from '@cfx/protocol/consume.ts';
import type { CheckResult, TxOutcome } from '../src/modules/market/settlement-chain.ts';
import { attachConsumeChain, type ConsumeChain } from '../src/modules/compose/consume-chain.ts';
import { mintPendingGoods, type Minter, type MintOutcome } from '../src/modules/drops/mint-batches.ts';
import { createBoxRelease, type BoxReleaseInput } from '../src/modules/boxes/create-box-release.ts';
import { createComposeRule } from '../src/modules/compose/create-compose-rule.ts';
import { inTx, lockKey } from '../src/db/tx.ts';
import { grantUnits, insertRelease, pickCreator } from '../src/modules/compose/releases.ts';
import { API, call, type TestApp } from './helpers.ts';
import { makeMarketApp, type FakeChain, type Trader } from './market-helpers.ts';

/**
 * Helpers of the blind-box, compose and shift API tests (without a node): FakeConsumeChain — the
 * test double of ConsumeChain, sharing FakeChain's token owners — which checks consumeAndMint like
 * the contract (the holder's CIP-23 signature under the Collectible's domain, every burn id held
 * by the owner, no mint id existing, each (owner, flowId) once, all or nothing); FakeChainMinter,
 * the mint job's Minter writing into the same owners; and set-ups for box releases and rules.
 * The real path is covered by goods-flows.chain.test.ts on an embedded node.
 */
export class FakeConsumeChain implements ConsumeChain {
  readonly networkId = 1029;
  readonly explorerUrl = 'https://confluxscan.io';
  get collectible() {
    return this.fake.collectible;
  }
  get collectibleHex() {
    return this.fake.collectibleHex;
  }
  epoch = 100;
  flowUsed = new Set<string>();
  txs = new Map<number, TxOutcome & { key: string }>();
  keys = new Map<string, number>();
  submitted: { key: string; consume: Consume; signature: string }[] = [];
  /** When false, submitted transactions stay pending until `mine()`. */
  autoMine = true;
  /** Forces the next submitted transaction to fail without effect ('lost': as if no receipt came). */
  nextOutcome: 'lost' | undefined;
  down = false;
  private seq = 0;
  private pending: (() => void)[] = [];
  private listeners = new Set<(id: number) => void>();

  constructor(readonly fake: FakeChain) {}

  domain() {
    return collectibleDomain(1029, this.fake.collectibleHex);
  }
  private flowKey(c: Consume) {
    return `${toHexAddress(c.owner).toLowerCase()}|${c.flowId}`;
  }
  verdict(c: Consume, signature: string): CheckResult {
    const perm = (reason: string): CheckResult => ({ ok: false, permanent: true, reason });
    if (!c.flowId || /^0x0{40}$/.test(toHexAddress(c.owner))) return perm('InvalidConsume');
    if (!c.burnIds.length || !c.mintIds.length) return perm('EmptyConsume');
    if (this.flowUsed.has(this.flowKey(c))) return perm('FlowIdUsed');
    if (!verifyConsume(signature, c, this.domain())) return perm('InvalidSigner');
    const seen = new Set<string>();
    for (const id of c.burnIds.map(String)) {
      if (seen.has(id) || !sameAddress(this.fake.owners.get(id) ?? '', toHexAddress(c.owner))) return perm('NotTokenOwner');
      seen.add(id);
    }
    for (const id of c.mintIds.map(String)) if (this.fake.owners.has(id)) return perm('ERC721InvalidSender');
    return { ok: true };
  }
  async check(c: Consume, signature: string): Promise<CheckResult> {
    if (this.down) return { ok: false, permanent: false, reason: 'chain unreachable: node down' };
    return this.verdict(c, signature);
  }
  async submit(key: string, c: Consume, signature: string): Promise<number> {
    const known = this.keys.get(key);
    if (known) return known;
    const id = ++this.seq;
    this.keys.set(key, id);
    this.submitted.push({ key, consume: c, signature });
    this.txs.set(id, { key, state: 'pending', txHash: null, error: null });
    const forced = this.nextOutcome;
    this.nextOutcome = undefined;
    this.pending.push(() => {
      const txHash = `0x${crypto.randomBytes(32).toString('hex')}`;
      const v = forced === 'lost' ? { ok: false as const, permanent: false, reason: 'no receipt after the retry limit' } : this.verdict(c, signature);
      if (v.ok) {
        this.flowUsed.add(this.flowKey(c));
        const owner = toBase32Address(toHexAddress(c.owner), 1029);
        const events = [];
        for (const b of c.burnIds.map(String)) {
          this.fake.owners.delete(b);
          this.fake.approvals.delete(b);
          events.push({ event: 'Transfer' as const, tokenId: b, from: owner, to: toBase32Address(ZERO_HEX_ADDRESS, 1029) });
        }
        for (const m of c.mintIds.map(String)) {
          this.fake.owners.set(m, owner);
          events.push({ event: 'Transfer' as const, tokenId: m, from: toBase32Address(ZERO_HEX_ADDRESS, 1029), to: owner });
        }
        this.txs.set(id, { key, state: 'confirmed', txHash, error: null });
        this.fake.emit(events);
      } else {
        this.txs.set(id, { key, state: 'failed', txHash, error: v.reason });
      }
      for (const l of this.listeners) l(id);
    });
    if (this.autoMine) setImmediate(() => this.mine());
    return id;
  }
  mine() {
    const runs = this.pending;
    this.pending = [];
    for (const r of runs) r();
  }
  async outcome(txId: number): Promise<TxOutcome> {
    const t = this.txs.get(txId);
    return t ? { state: t.state, txHash: t.txHash, error: t.error } : { state: 'failed', txHash: null, error: 'unknown' };
  }
  async ownerOf(tokenId: string) {
    if (this.down) throw new Error('node down');
    return this.fake.owners.get(tokenId) ?? null;
  }
  async currentEpoch() {
    return this.epoch;
  }
  async blockHash(epoch: number) {
    return epoch <= this.epoch ? `0x${crypto.createHash('sha256').update(`block ${epoch}`).digest('hex')}` : null;
  }
  onTxDone(l: (id: number) => void) {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  }
  /** Confirmed consumeAndMint transactions. */
  confirmed() {
    return [...this.txs.values()].filter((t) => t.state === 'confirmed');
  }
}

/** The mint job's Minter on the fake chain: minted tokens belong to their owners in FakeChain. */
export class FakeChainMinter implements Minter {
  constructor(readonly fake: FakeChain) {}
  get contract() {
    return this.fake.collectible;
  }
  private seq = 0;
  private txs = new Map<number, MintOutcome>();
  async submit(_key: string, to: string[], tokenIds: string[]) {
    const id = ++this.seq;
    const clash = tokenIds.some((t) => this.fake.owners.has(t));
    if (!clash) tokenIds.forEach((t, i) => this.fake.owners.set(t, toBase32Address(toHexAddress(to[i]!), 1029)));
    this.txs.set(id, clash ? { state: 'failed', txHash: null, error: 'reverted' } : { state: 'confirmed', txHash: `0x${crypto.randomBytes(32).toString('hex')}`, error: null });
    return id;
  }
  async outcomes(ids: number[]) {
    return new Map(ids.map((id) => [id, this.txs.get(id)!] as const));
  }
  async ownerOf(tokenId: string) {
    return this.fake.owners.get(tokenId) ?? null;
  }
}

export type FlowsApp = TestApp & { chain: FakeChain; consume: FakeConsumeChain; minter: FakeChainMinter };

export async function makeFlowsApp(env: NodeJS.ProcessEnv = {}): Promise<FlowsApp> {
  const t = await makeMarketApp({ DROP_ATTEMPTS_PER_SECOND: '1000', ...env });
  const consume = new FakeConsumeChain(t.chain);
  attachConsumeChain(t.ctx, consume);
  return Object.assign(t, { consume, minter: new FakeChainMinter(t.chain) });
}

/** Mints every pending collectible (boxes, fragments granted) on the fake chain. */
export async function mintAll(t: FlowsApp) {
  while ((await mintPendingGoods(t.ctx, t.minter)) > 0);
}

export async function runJobs(t: TestApp) {
  await t.ctx.jobs.runOnce();
}

/** A box release whose boxes (`grant`, default all) belong to `owner`, minted. */
export async function makeBoxRelease(t: FlowsApp, owner: Trader, input: Partial<BoxReleaseInput> & { grant?: number } = {}) {
  const kinds = input.kinds ?? [
    { name: '隐藏款', rarity: '隐藏', count: 1 },
    { name: '稀有款', rarity: '稀有', count: 2 },
    { name: '普通款', rarity: '普通', count: 3 },
  ];
  const supply = kinds.reduce((n, k) => n + k.count, 0);
  const r = await createBoxRelease(t.ctx, null, { revealInEpochs: 5, ...input, kinds, grantTo: { userId: owner.userId, count: input.grant ?? supply } });
  await mintAll(t);
  return r;
}

/** Reaches the reveal epoch and runs the reveal sweep. */
export async function reveal(t: FlowsApp, revealEpoch: number) {
  t.consume.epoch = Math.max(t.consume.epoch, revealEpoch);
  await runJobs(t);
}

/** Signs consent typed data (Consume) as Fluent would, with the trader's key. */
export function signConsent(u: Trader, typedData: { domain: any; message: any }): string {
  return signConsume(u.key, typedData.message, typedData.domain);
}

/** `n` fragment releases, `grant` fragments of each to `owner` (minted), and a rule taking `count` of each. */
export async function makeRule(t: FlowsApp, owner: Trader | null, opts: { ingredients?: number; count?: number; grant?: number; maxTimes?: number; holdingDays?: number } = {}) {
  const n = opts.ingredients ?? 1;
  const count = opts.count ?? 3;
  const now = t.ctx.now();
  const made = await inTx(t.ctx, async (trx) => {
    await lockKey(t.ctx, trx, 'token-ranges');
    const creatorId = await pickCreator(trx, null, now);
    const projects: number[] = [];
    const goods: { goodsId: number; tokenId: string }[] = [];
    for (let i = 0; i < n; i++) {
      const r = await insertRelease(t.ctx, trx, { creatorId, name: `碎片${i + 1}-${crypto.randomInt(1e6)}`, supply: 1000, priceFen: 100, saleStartAt: now - 60_000, holdingDays: opts.holdingDays ?? 0 }, now);
      projects.push(r.projectId);
      if (owner) goods.push(...(await grantUnits(trx, t.ctx, r.projectId, owner.userId, opts.grant ?? count, now)));
    }
    return { projects, goods };
  });
  const rule = await createComposeRule(t.ctx, null, { name: '测试合成', ingredients: made.projects.map((projectId) => ({ projectId, count })), maxTimes: opts.maxTimes ?? 10 });
  await mintAll(t);
  return { ...rule, fragmentProjectIds: made.projects, goods: made.goods };
}

/** More fragments of a release for a user (minted). */
export async function grantFragments(t: FlowsApp, owner: Trader, projectId: number, n: number) {
  const goods = await inTx(t.ctx, (trx) => grantUnits(trx, t.ctx, projectId, owner.userId, n, t.ctx.now()));
  await mintAll(t);
  return goods;
}

export async function get(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: API + path, headers: { channel: 'pc', ...headers } });
  return { http: res.statusCode, ...(res.json() as { status: string; code: string; data: any; message: string }) };
}

export function expectOk(r: { status: string; message: string }) {
  expect(r.status, r.message).toBe('000000');
}

export { call };
