/**
 * The multi-step wallet flows of the consignment market:
 *
 * - list now:   prepare (wallet check + preOpenSale: draft, typed data, cost, pendingCancels)
 *               → cancel (Exchange.cancelOrder(id) in the wallet for every earlier signed order of
 *                 the collectible still open on chain, receipts polled; skipped when there is none —
 *                 the server refuses the new signature until they are cancelled)
 *               → approve (Collectible.approve(exchange, tokenId) in the wallet, receipt polled;
 *                 skipped when the exchange is already approved)
 *               → sign (cfx_signTypedData_v4 of the listOrder)
 *               → submit (openSale) → sync (openAndCloseNotify: the server re-reads the chain)
 * - agree bid:  the same with preOpenSale {bidId} and agreeBargin/ as the submit (an order for the bidder)
 * - off shelf:  close (closeSale) → cancel (Exchange.cancelOrder(sellerOrderId) in the wallet, so
 *               the old signature can never fill) → revoke (approve the zero address) → sync
 *
 * A retry after a failed wallet step resumes at that step (the context objects keep what is done).
 *
 * Pure: the API calls, the wallet and the texts are injected (unit-tested with fakes).
 */
import { sameAddress } from '@cfx/protocol/address.ts';
import type { ApiResult } from '../../lib/api.ts';
import type { ChainListingState, CloseSaleResult, Listing, OrderDetail, PreOpenSale } from './api/types.ts';

export type StepStatus = 'pending' | 'active' | 'wallet' | 'chain' | 'done' | 'skipped' | 'failed';
export type SellStep = 'prepare' | 'cancel' | 'approve' | 'sign' | 'submit' | 'sync';
export type OffShelfStep = 'close' | 'cancel' | 'revoke' | 'sync';
export type FlowStep = SellStep | OffShelfStep;

export const SELL_STEPS: readonly SellStep[] = ['prepare', 'cancel', 'approve', 'sign', 'submit', 'sync'];
export const AGREE_STEPS: readonly SellStep[] = ['prepare', 'cancel', 'approve', 'sign', 'submit'];
export const OFF_SHELF_STEPS: readonly OffShelfStep[] = ['close', 'cancel', 'revoke', 'sync'];

export interface StepUpdate {
  status: StepStatus;
  /** Failure reason (failed) or a note (e.g. the tx hash while confirming). */
  message?: string;
  hash?: string;
  /** Several transactions in one step (cancelling earlier orders): which one, e.g. "1/2". */
  progress?: string;
}

export { WalletGateError, type FlowProvider, type LinkedWallet, type WalletGate } from '../../lib/wallet/gate.ts';
import { WalletGateError, type FlowProvider, type LinkedWallet, type WalletGate } from '../../lib/wallet/gate.ts';
import { approveCalldata, cancelOrderCalldata } from '@cfx/protocol/calldata.ts';

export type TxOutcome = { status: 'success'; hash: string } | { status: 'failed'; hash: string; reason: string } | { status: 'timeout'; hash: string };

type Translate = (key: any, vars?: any) => string;

export interface FlowDeps {
  t: Translate;
  linkedWallet(): Promise<LinkedWallet>;
  approve(provider: FlowProvider, tx: { from: string; collectible: string; to: string; tokenId: string }, onSent: (hash: string) => void): Promise<TxOutcome>;
  /** Exchange.cancelOrder(sellerOrderId) sent to `exchange` from `from`; receipt polled like approve. */
  cancelOrder(provider: FlowProvider, tx: { from: string; exchange: string; sellerOrderId: string }, onSent: (hash: string) => void): Promise<TxOutcome>;
  sign(provider: FlowProvider, address: string, typedData: PreOpenSale['typedData']): Promise<string>;
  /** Epoch ms (injected for tests): a kept draft is reused on a retry only while it is valid. */
  now?(): number;
  /** User-facing text of a wallet error (rejection → "you cancelled this in the wallet"). */
  walletErrorText(err: unknown): string;
  preOpenSale(body: { goodsId: number; price: number; bidId?: number }): Promise<ApiResult<PreOpenSale>>;
  openSale(body: { goodsId: number; price: number; sellerOrderId: string; signature: string }): Promise<ApiResult<Listing>>;
  agreeBid(body: { bidId: number; sellerOrderId: string; signature: string }): Promise<ApiResult<OrderDetail>>;
  closeSale(body: { goodsId: number }): Promise<ApiResult<CloseSaleResult>>;
  notify(body: { goodsId: number; txHash?: string; action: 'open' | 'close' }): Promise<ApiResult<ChainListingState>>;
}

/** `code`: the API status of a refused call (e.g. 1011 = the trading gate: real name, 18+, wallet). */
export type FlowResult<T> = { ok: true; value: T } | { ok: false; step: FlowStep; message: string; gate?: WalletGate; code?: string };

type OnStep<S extends FlowStep> = (step: S, update: StepUpdate) => void;

class StepFailure extends Error {
  constructor(
    readonly step: FlowStep,
    message: string,
    readonly gate?: WalletGate,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** A refused or failed API call as a step failure (with its status code). */
function apiFailure(t: Translate, step: FlowStep, r: ApiResult<unknown>): StepFailure {
  return new StepFailure(step, apiMessage(t, r), undefined, r.networkError ? undefined : r.status || undefined);
}

export { approveCalldata, cancelOrderCalldata };

function apiMessage(t: Translate, r: ApiResult<unknown>): string {
  if (r.networkError) return t('market.flow.network');
  return r.message || t('common.requestFailed');
}

function gateMessage(t: Translate, gate: WalletGate): string {
  return t(`market.gate.${gate}`);
}

async function walletOf(deps: FlowDeps, step: FlowStep): Promise<LinkedWallet> {
  try {
    return await deps.linkedWallet();
  } catch (err) {
    if (err instanceof WalletGateError) throw new StepFailure(step, gateMessage(deps.t, err.gate), err.gate);
    throw new StepFailure(step, deps.walletErrorText(err));
  }
}

/**
 * One wallet transaction with its visible phases: waiting for the wallet, confirming on chain, then
 * done (unless `more`: another transaction of the same step follows), or failed with the reason.
 */
async function txStep<S extends FlowStep>(
  deps: FlowDeps,
  step: S,
  onStep: OnStep<S>,
  send: (onSent: (hash: string) => void) => Promise<TxOutcome>,
  opts: { progress?: string; more?: boolean } = {},
): Promise<string> {
  const progress = opts.progress ? { progress: opts.progress } : {};
  onStep(step, { status: 'wallet', ...progress });
  let outcome: TxOutcome;
  try {
    outcome = await send((hash) => onStep(step, { status: 'chain', hash, ...progress }));
  } catch (err) {
    throw new StepFailure(step, deps.walletErrorText(err));
  }
  if (outcome.status === 'success') {
    if (!opts.more) onStep(step, { status: 'done', hash: outcome.hash, ...progress });
    return outcome.hash;
  }
  const message = outcome.status === 'failed' ? deps.t('wallet.errors.txFailed', { reason: outcome.reason }) : deps.t('wallet.errors.txTimeout');
  throw new StepFailure(step, message);
}

/** approve(to, tokenId) from the wallet. */
function approveStep<S extends FlowStep>(deps: FlowDeps, step: S, onStep: OnStep<S>, wallet: LinkedWallet, tx: { collectible: string; to: string; tokenId: string }): Promise<string> {
  return txStep(deps, step, onStep, (onSent) => deps.approve(wallet.provider, { from: wallet.address, ...tx }, onSent));
}

/**
 * Exchange.cancelOrder for each id not yet in `done` (ids are added as their receipts confirm, so
 * a retry sends only the rest). Skipped when there is nothing to cancel.
 */
async function cancelStep<S extends FlowStep>(deps: FlowDeps, step: S, onStep: OnStep<S>, wallet: () => Promise<LinkedWallet>, exchange: string, ids: readonly string[], done: string[]) {
  const todo = ids.filter((id) => !done.includes(id));
  if (ids.length === 0) return onStep(step, { status: 'skipped' });
  if (todo.length === 0) return onStep(step, { status: 'done' });
  onStep(step, { status: 'active' });
  const w = await wallet();
  for (const [i, sellerOrderId] of todo.entries()) {
    const n = ids.indexOf(sellerOrderId) + 1;
    await txStep(deps, step, onStep, (onSent) => deps.cancelOrder(w.provider, { from: w.address, exchange, sellerOrderId }, onSent), {
      progress: ids.length > 1 ? `${n}/${ids.length}` : undefined,
      more: i < todo.length - 1,
    });
    done.push(sellerOrderId);
  }
}

async function run<T, S extends FlowStep>(onStep: OnStep<S>, body: () => Promise<T>): Promise<FlowResult<T>> {
  try {
    return { ok: true, value: await body() };
  } catch (err) {
    if (err instanceof StepFailure) {
      onStep(err.step as S, { status: 'failed', message: err.message });
      return { ok: false, step: err.step, message: err.message, gate: err.gate, code: err.code };
    }
    throw err;
  }
}

export interface SellInput {
  goodsId: number;
  priceFen: number;
  /** Accepting this bid (agreeBargin) instead of listing publicly. */
  bid?: { id: number };
}

export type SellValue = { kind: 'listed'; listing: Listing; state: ChainListingState | null } | { kind: 'agreed'; order: OrderDetail };

/**
 * What a sell flow has done so far. After a failure at a wallet step (cancel, approve, sign) a
 * retry with the same context resumes there, with the same draft while it is valid; after any
 * other failure the context is cleared and a retry starts again at prepare.
 */
export interface SellContext {
  draft?: PreOpenSale;
  /** Earlier orders cancelled on chain in this flow. */
  cancelled?: string[];
  approveHash?: string;
  approved?: boolean;
  signature?: string;
}

/** A kept draft is reused only with this margin before it expires. */
const DRAFT_MARGIN_MS = 60_000;

/** List now / agree to a bid. */
export function runSell(input: SellInput, deps: FlowDeps, onStep: OnStep<SellStep>, ctx: SellContext = {}): Promise<FlowResult<SellValue>> {
  const { t } = deps;
  const now = deps.now ?? Date.now;
  return run(onStep, async () => {
    try {
      return await sellSteps();
    } catch (err) {
      const step = err instanceof StepFailure ? err.step : undefined;
      if (step !== 'cancel' && step !== 'approve' && step !== 'sign') for (const k of Object.keys(ctx) as (keyof SellContext)[]) delete ctx[k];
      throw err;
    }
  });

  async function sellSteps(): Promise<SellValue> {
    // 1. prepare: the wallet first (so nothing is drafted for a wallet that cannot sign), then the draft.
    onStep('prepare', { status: 'active' });
    const wallet = await walletOf(deps, 'prepare');
    if (ctx.draft && ctx.draft.expiresAt - DRAFT_MARGIN_MS <= now()) for (const k of Object.keys(ctx) as (keyof SellContext)[]) delete ctx[k];
    if (!ctx.draft) {
      const pre = await deps.preOpenSale({ goodsId: input.goodsId, price: input.priceFen, ...(input.bid ? { bidId: input.bid.id } : {}) });
      if (!pre.ok || !pre.data) throw apiFailure(t, 'prepare', pre);
      if (!sameAddress(pre.data.seller, wallet.address)) throw new StepFailure('prepare', gateMessage(t, 'otherAccount'), 'otherAccount');
      ctx.draft = pre.data;
      ctx.cancelled = [];
    }
    const draft = ctx.draft;
    if (!sameAddress(draft.seller, wallet.address)) throw new StepFailure('prepare', gateMessage(t, 'otherAccount'), 'otherAccount');
    onStep('prepare', { status: 'done' });

    // 2. cancel on chain every earlier signed order of this collectible that is still open.
    await cancelStep(deps, 'cancel', onStep, async () => wallet, draft.exchange, draft.pendingCancels ?? [], (ctx.cancelled ??= []));

    // 3. approve the exchange for the token (on shelf), unless it already is.
    if (draft.approved) onStep('approve', { status: 'skipped' });
    else if (ctx.approved) onStep('approve', { status: 'done', hash: ctx.approveHash });
    else {
      ctx.approveHash = await approveStep(deps, 'approve', onStep, wallet, { collectible: draft.collectible, to: draft.exchangeHex, tokenId: draft.tokenId });
      ctx.approved = true;
    }
    const approveHash = ctx.approveHash;

    // 4. sign the listOrder.
    let signature = ctx.signature;
    if (!signature) {
      onStep('sign', { status: 'wallet' });
      try {
        signature = await deps.sign(wallet.provider, wallet.address, draft.typedData);
      } catch (err) {
        throw new StepFailure('sign', deps.walletErrorText(err));
      }
      ctx.signature = signature;
    }
    onStep('sign', { status: 'done' });

    // 5. submit.
    onStep('submit', { status: 'active' });
    if (input.bid) {
      const r = await deps.agreeBid({ bidId: input.bid.id, sellerOrderId: draft.sellerOrderId, signature });
      if (!r.ok || !r.data) throw apiFailure(t, 'submit', r);
      onStep('submit', { status: 'done' });
      return { kind: 'agreed' as const, order: r.data };
    }
    const r = await deps.openSale({ goodsId: input.goodsId, price: input.priceFen, sellerOrderId: draft.sellerOrderId, signature });
    if (!r.ok || !r.data) throw apiFailure(t, 'submit', r);
    onStep('submit', { status: 'done' });

    // 6. sync: informational (the listing is live already); a failure here is not the user's problem.
    onStep('sync', { status: 'active' });
    const n = await deps.notify({ goodsId: input.goodsId, action: 'open', ...(approveHash ? { txHash: approveHash } : {}) });
    onStep('sync', { status: 'done' });
    return { kind: 'listed' as const, listing: r.data, state: n.ok ? n.data : null };
  }
}

export interface OffShelfContext {
  /** Set once closeSale succeeded: what to approve(0) on chain (null when the server has no chain). */
  approveZero?: CloseSaleResult['approveZero'];
  /** Set once closeSale succeeded: the signed order to cancel on chain (null when the server has no chain). */
  cancel?: CloseSaleResult['cancel'];
  /** The cancelled order id once its receipt confirmed. */
  cancelled?: string[];
  /** approve(0) confirmed (its hash). */
  revokeHash?: string;
}

/**
 * Off shelf. `ctx` keeps what closeSale answered and which chain steps are confirmed, so a retry
 * after a failed wallet step starts at that step (the listing is already closed on the platform).
 */
export function runOffShelf(goodsId: number, deps: FlowDeps, onStep: OnStep<OffShelfStep>, ctx: OffShelfContext = {}): Promise<FlowResult<ChainListingState | null>> {
  const { t } = deps;
  return run(onStep, async () => {
    if (ctx.approveZero === undefined) {
      onStep('close', { status: 'active' });
      const r = await deps.closeSale({ goodsId });
      if (!r.ok || !r.data) throw apiFailure(t, 'close', r);
      ctx.approveZero = r.data.approveZero;
      ctx.cancel = r.data.cancel ?? null;
      ctx.cancelled = [];
    }
    onStep('close', { status: 'done' });

    // The old signature can never fill once its sellerOrderId is cancelled on chain.
    let wallet: LinkedWallet | undefined;
    const walletFor = async (step: OffShelfStep) => (wallet ??= await walletOf(deps, step));
    const cancel = ctx.cancel;
    if (!cancel) onStep('cancel', { status: 'skipped' });
    else await cancelStep(deps, 'cancel', onStep, () => walletFor('cancel'), cancel.exchange, [cancel.sellerOrderId], (ctx.cancelled ??= []));

    let hash = ctx.revokeHash;
    const zero = ctx.approveZero;
    if (!zero) onStep('revoke', { status: 'skipped' });
    else if (hash) onStep('revoke', { status: 'done', hash });
    else {
      onStep('revoke', { status: 'active' });
      const w = await walletFor('revoke');
      hash = await approveStep(deps, 'revoke', onStep, w, { collectible: zero.collectible, to: zero.to, tokenId: zero.tokenId });
      ctx.revokeHash = hash;
    }

    onStep('sync', { status: 'active' });
    const n = await deps.notify({ goodsId, action: 'close', ...(hash ? { txHash: hash } : {}) });
    onStep('sync', { status: 'done' });
    return n.ok ? n.data : null;
  });
}
