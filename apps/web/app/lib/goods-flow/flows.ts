/**
 * The wallet flows of blind boxes, compose and moving collectibles (docs/drops.md; each
 * step's state visible — waiting for the wallet, confirming on chain, done, failed with a reason):
 *
 * - open a box:  prepare (the linked wallet, then openBox: the Consume typed data)
 *                → sign (cfx_signTypedData_v4 in the wallet) → submit (openBox/confirm)
 *                → chain (the operator's consumeAndMint: polled until the item is minted)
 * - compose:     prepare (selectfragment → confirmcompose: fragments and result reserved, the
 *                Consume typed data) → sign → submit (submitcompose) → chain (polled)
 * - shift / gift: prepare (shift or gift: the transfer to make) → transfer (Collectible.transferFrom
 *                from the wallet, sponsored; receipt polled) → sync (shift/notify: the server reads
 *                the chain and records the move)
 *
 * A retry after a failed wallet step resumes at that step (the context keeps what is done).
 * Pure: the API calls, the wallet, the clock and the texts are injected (unit-tested with fakes).
 */
import { sameAddress } from '@cfx/protocol/address.ts';
import type { ApiResult } from '../api.ts';
import type { ComposeConsent, ComposeRecord, ConsumeTypedData, GoodsTransfer, Opening, Page, TransferIntent } from './types.ts';
import { transferFromCalldata } from '@cfx/protocol/calldata.ts';

export type GfStep = 'prepare' | 'sign' | 'submit' | 'chain' | 'transfer' | 'sync';
export type GfStepStatus = 'pending' | 'active' | 'wallet' | 'chain' | 'done' | 'skipped' | 'failed';
export interface GfStepUpdate {
  status: GfStepStatus;
  message?: string;
  hash?: string;
}
export type OnGfStep = (step: GfStep, update: GfStepUpdate) => void;

export const OPEN_BOX_STEPS: readonly GfStep[] = ['prepare', 'sign', 'submit', 'chain'];
export const COMPOSE_STEPS: readonly GfStep[] = ['prepare', 'sign', 'submit', 'chain'];
export const TRANSFER_STEPS: readonly GfStep[] = ['prepare', 'transfer', 'sync'];

/** Why the wallet cannot be used (the same gates as the market's flows). */
export type GfGate = 'needLogin' | 'noWallet' | 'notConnected' | 'unavailable' | 'otherAccount';

export interface GfProvider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}
export interface GfWallet {
  provider: GfProvider;
  address: string;
}
export type GfTxOutcome = { status: 'success'; hash: string } | { status: 'failed'; hash: string; reason: string } | { status: 'timeout'; hash: string };

type Translate = (key: any, vars?: any) => string;

export interface GfDeps {
  t: Translate;
  /** The linked wallet, ready (throws an error whose `gate` says why not). */
  linkedWallet(): Promise<GfWallet>;
  sign(provider: GfProvider, address: string, typedData: ConsumeTypedData): Promise<string>;
  /** Collectible.transferFrom(fromHex, toHex, tokenId) sent to `collectible` from `from`; receipt polled. */
  transfer(provider: GfProvider, tx: { from: string; collectible: string; fromHex: string; toHex: string; tokenId: string }, onSent: (hash: string) => void): Promise<GfTxOutcome>;
  walletErrorText(err: unknown): string;
  /** The gate of a wallet error (WalletGateError), else undefined. */
  gateOf(err: unknown): GfGate | undefined;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** `retry`: start a new attempt after a failed one. */
  openBox(goodsId: number, retry?: boolean): Promise<ApiResult<Opening>>;
  confirmOpenBox(body: { goodsId: number; signature: string }): Promise<ApiResult<Opening>>;
  selectFragments(body: { ruleId: number; goodsIds: number[] }): Promise<ApiResult<ComposeRecord>>;
  confirmCompose(body: { composeNo: string }): Promise<ApiResult<ComposeConsent>>;
  submitCompose(body: { composeNo: string; signature: string }): Promise<ApiResult<ComposeRecord>>;
  listComposeRecords(body: { composeNo: string; pageNum: number; pageSize: number }): Promise<ApiResult<Page<ComposeRecord>>>;
  startShift(body: { goodsId: number; toAddress: string }): Promise<ApiResult<TransferIntent>>;
  startGift(body: { goodsId: number; mobile?: string; accountId?: string }): Promise<ApiResult<TransferIntent>>;
  notifyTransfer(body: { transferNo: string; txHash?: string }): Promise<ApiResult<GoodsTransfer>>;
}

export type GfResult<T> = { ok: true; value: T } | { ok: false; step: GfStep; message: string; gate?: GfGate; code?: string };

/** How long the chain step waits for the operator's transaction before telling the user to look later. */
export const CHAIN_WAIT_MS = 120_000;
export const POLL_MS = 1500;

class StepFailure extends Error {
  constructor(readonly step: GfStep, message: string, readonly gate?: GfGate, readonly code?: string) {
    super(message);
  }
}

function apiFailure(t: Translate, step: GfStep, r: ApiResult<unknown>) {
  return new StepFailure(step, r.networkError ? t('goodsFlow.network') : r.message || t('common.requestFailed'), undefined, r.networkError ? undefined : r.status || undefined);
}

async function walletOf(deps: GfDeps, step: GfStep): Promise<GfWallet> {
  try {
    return await deps.linkedWallet();
  } catch (err) {
    const gate = deps.gateOf(err);
    if (gate) throw new StepFailure(step, deps.t(`market.gate.${gate}`), gate);
    throw new StepFailure(step, deps.walletErrorText(err));
  }
}

async function run<T>(onStep: OnGfStep, body: () => Promise<T>): Promise<GfResult<T>> {
  try {
    return { ok: true, value: await body() };
  } catch (err) {
    if (err instanceof StepFailure) {
      onStep(err.step, { status: 'failed', message: err.message });
      return { ok: false, step: err.step, message: err.message, gate: err.gate, code: err.code };
    }
    throw err;
  }
}

async function signStep(deps: GfDeps, onStep: OnGfStep, wallet: GfWallet, typedData: ConsumeTypedData): Promise<string> {
  onStep('sign', { status: 'wallet' });
  try {
    const sig = await deps.sign(wallet.provider, wallet.address, typedData);
    onStep('sign', { status: 'done' });
    return sig;
  } catch (err) {
    throw new StepFailure('sign', deps.walletErrorText(err));
  }
}

/** Polls `read` until `settled` says it is over (or the wait is up). */
async function pollUntil<T>(deps: GfDeps, read: () => Promise<T | null>, settled: (v: T) => boolean): Promise<T | null> {
  const end = deps.now() + CHAIN_WAIT_MS;
  let last: T | null = null;
  for (;;) {
    const v = await read();
    if (v !== null) {
      last = v;
      if (settled(v)) return v;
    }
    if (deps.now() >= end) return last;
    await deps.sleep(POLL_MS);
  }
}

export interface OpenBoxContext {
  /** The consent signed in this flow (kept for a retry of the submit). */
  signature?: string;
  opening?: Opening;
}

/** Open a box: returns the completed opening (with the drawn item). */
export function runOpenBox(goodsId: number, deps: GfDeps, onStep: OnGfStep, ctx: OpenBoxContext = {}): Promise<GfResult<Opening>> {
  const { t } = deps;
  return run(onStep, async () => {
    onStep('prepare', { status: 'active' });
    const wallet = await walletOf(deps, 'prepare');
    let r = await deps.openBox(goodsId);
    // A failed earlier attempt (the chain refused it): this click is a new attempt.
    if (r.ok && r.data?.status === 'failed') r = await deps.openBox(goodsId, true);
    if (!r.ok || !r.data) throw apiFailure(t, 'prepare', r);
    let o = r.data;
    onStep('prepare', { status: 'done' });
    if (o.status === 'signing') {
      if (!o.typedData) throw new StepFailure('prepare', t('common.requestFailed'));
      if (!sameAddress(o.owner, wallet.address)) throw new StepFailure('prepare', t('market.gate.otherAccount'), 'otherAccount');
      if (!ctx.signature || ctx.opening?.mintTokenId !== o.mintTokenId) ctx.signature = await signStep(deps, onStep, wallet, o.typedData);
      else onStep('sign', { status: 'done' });
      ctx.opening = o;
      onStep('submit', { status: 'active' });
      const c = await deps.confirmOpenBox({ goodsId, signature: ctx.signature });
      if (!c.ok || !c.data) throw apiFailure(t, 'submit', c);
      o = c.data;
      onStep('submit', { status: 'done' });
    } else {
      onStep('sign', { status: 'done' });
      onStep('submit', { status: 'done' });
    }
    onStep('chain', { status: 'chain' });
    const final = o.status === 'completed' ? o : await pollUntil(deps, async () => {
      const x = await deps.openBox(goodsId);
      return x.ok && x.data ? x.data : null;
    }, (x) => x.status === 'completed' || x.status === 'failed');
    if (!final || final.status === 'submitted') throw new StepFailure('chain', t('goodsFlow.chainSlow'));
    if (final.status !== 'completed') throw new StepFailure('chain', final.failReason ?? t('common.requestFailed'));
    ctx.signature = undefined;
    onStep('chain', { status: 'done', hash: final.txHash ?? undefined });
    return final;
  });
}

export interface ComposeContext {
  consent?: ComposeConsent;
  signature?: string;
}

/** Compose the selected fragments: returns the completed record (with the result). */
export function runCompose(input: { ruleId: number; goodsIds: number[] }, deps: GfDeps, onStep: OnGfStep, ctx: ComposeContext = {}): Promise<GfResult<ComposeRecord>> {
  const { t } = deps;
  return run(onStep, async () => {
    onStep('prepare', { status: 'active' });
    const wallet = await walletOf(deps, 'prepare');
    // A kept consent is reused while it is valid (a retry after a refused signature).
    if (ctx.consent && (ctx.consent.record.expiresAt ?? 0) - 30_000 <= deps.now()) {
      ctx.consent = undefined;
      ctx.signature = undefined;
    }
    if (!ctx.consent) {
      const sel = await deps.selectFragments(input);
      if (!sel.ok || !sel.data) throw apiFailure(t, 'prepare', sel);
      const c = await deps.confirmCompose({ composeNo: sel.data.composeNo });
      if (!c.ok || !c.data) throw apiFailure(t, 'prepare', c);
      ctx.consent = c.data;
    }
    const consent = ctx.consent;
    if (!sameAddress(consent.owner, wallet.address)) throw new StepFailure('prepare', t('market.gate.otherAccount'), 'otherAccount');
    onStep('prepare', { status: 'done' });
    ctx.signature ??= await signStep(deps, onStep, wallet, consent.typedData);
    onStep('sign', { status: 'done' });
    onStep('submit', { status: 'active' });
    const composeNo = consent.record.composeNo;
    const s = await deps.submitCompose({ composeNo, signature: ctx.signature });
    if (!s.ok || !s.data) {
      // The consent is spent or expired: start over next time.
      ctx.consent = undefined;
      ctx.signature = undefined;
      throw apiFailure(t, 'submit', s);
    }
    onStep('submit', { status: 'done' });
    onStep('chain', { status: 'chain' });
    const final = await pollUntil(deps, async () => {
      const x = await deps.listComposeRecords({ composeNo, pageNum: 1, pageSize: 1 });
      return x.ok && x.data?.list[0] ? x.data.list[0] : null;
    }, (x) => x.status === 'completed' || x.status === 'failed');
    ctx.consent = undefined;
    ctx.signature = undefined;
    if (!final || final.status === 'submitted') throw new StepFailure('chain', t('goodsFlow.chainSlow'));
    if (final.status !== 'completed') throw new StepFailure('chain', final.failReason ?? t('common.requestFailed'));
    onStep('chain', { status: 'done', hash: final.txHash ?? undefined });
    return final;
  });
}

export type TransferInput = { kind: 'shift'; goodsId: number; toAddress: string } | { kind: 'gift'; goodsId: number; mobile?: string; accountId?: string };

export interface TransferContext {
  intent?: TransferIntent;
  hash?: string;
}

/** Move (shift) or give (gift) a collectible: returns the transfer as the server recorded it. */
export function runTransfer(input: TransferInput, deps: GfDeps, onStep: OnGfStep, ctx: TransferContext = {}): Promise<GfResult<GoodsTransfer>> {
  const { t } = deps;
  return run(onStep, async () => {
    onStep('prepare', { status: 'active' });
    const wallet = await walletOf(deps, 'prepare');
    if (!ctx.intent || ctx.intent.expiresAt - 30_000 <= deps.now()) {
      ctx.hash = undefined;
      const r = input.kind === 'shift' ? await deps.startShift({ goodsId: input.goodsId, toAddress: input.toAddress }) : await deps.startGift({ goodsId: input.goodsId, mobile: input.mobile, accountId: input.accountId });
      if (!r.ok || !r.data) throw apiFailure(t, 'prepare', r);
      ctx.intent = r.data;
    }
    const intent = ctx.intent;
    if (!sameAddress(intent.fromAddress, wallet.address)) throw new StepFailure('prepare', t('market.gate.otherAccount'), 'otherAccount');
    onStep('prepare', { status: 'done' });

    if (ctx.hash) onStep('transfer', { status: 'done', hash: ctx.hash });
    else {
      onStep('transfer', { status: 'wallet' });
      let out: GfTxOutcome;
      try {
        out = await deps.transfer(wallet.provider, { from: wallet.address, collectible: intent.collectible, fromHex: intent.fromHex, toHex: intent.toHex, tokenId: intent.goods.tokenId }, (hash) =>
          onStep('transfer', { status: 'chain', hash }),
        );
      } catch (err) {
        throw new StepFailure('transfer', deps.walletErrorText(err));
      }
      if (out.status !== 'success') throw new StepFailure('transfer', out.status === 'failed' ? t('wallet.errors.txFailed', { reason: out.reason }) : t('wallet.errors.txTimeout'));
      ctx.hash = out.hash;
      onStep('transfer', { status: 'done', hash: out.hash });
    }

    // sync: the server reads the chain now (the indexer records it too, a little later).
    onStep('sync', { status: 'active' });
    let last: GoodsTransfer | null = null;
    for (let i = 0; i < 8; i++) {
      const n = await deps.notifyTransfer({ transferNo: intent.transferNo, txHash: ctx.hash });
      if (n.ok && n.data) {
        last = n.data;
        if (n.data.status === 'done') break;
      }
      await deps.sleep(POLL_MS);
    }
    onStep('sync', { status: 'done', message: last?.status === 'done' ? undefined : t('goodsFlow.syncLater') });
    const value = last ?? { ...intent, status: 'pending' as const };
    ctx.intent = undefined;
    ctx.hash = undefined;
    return value;
  });
}

export { transferFromCalldata };
