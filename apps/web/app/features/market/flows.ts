/**
 * The multi-step wallet flows of the consignment market (spec §4; DESIGN §7: each step's state
 * visible — waiting for the wallet, confirming on chain, done, failed with a reason):
 *
 * - list now:   prepare (wallet check + preOpenSale: draft, typed data, cost)
 *               → approve (Collectible.approve(exchange, tokenId) in the wallet, receipt polled;
 *                 skipped when the exchange is already approved)
 *               → sign (cfx_signTypedData_v4 of the listOrder)
 *               → submit (openSale) → sync (openAndCloseNotify: the server re-reads the chain)
 * - agree bid:  the same with preOpenSale {bidId} and agreeBargin/ as the submit (an order for the bidder)
 * - off shelf:  close (closeSale) → revoke (approve the zero address in the wallet) → sync
 *
 * Pure: the API calls, the wallet and the texts are injected (unit-tested with fakes).
 */
import { sameAddress } from '@cfx/protocol/address.ts';
import type { ApiResult } from '../../lib/api.ts';
import type { ChainListingState, CloseSaleResult, Listing, OrderDetail, PreOpenSale } from './api/types.ts';

export type StepStatus = 'pending' | 'active' | 'wallet' | 'chain' | 'done' | 'skipped' | 'failed';
export type SellStep = 'prepare' | 'approve' | 'sign' | 'submit' | 'sync';
export type OffShelfStep = 'close' | 'revoke' | 'sync';
export type FlowStep = SellStep | OffShelfStep;

export const SELL_STEPS: readonly SellStep[] = ['prepare', 'approve', 'sign', 'submit', 'sync'];
export const AGREE_STEPS: readonly SellStep[] = ['prepare', 'approve', 'sign', 'submit'];
export const OFF_SHELF_STEPS: readonly OffShelfStep[] = ['close', 'revoke', 'sync'];

export interface StepUpdate {
  status: StepStatus;
  /** Failure reason (failed) or a note (e.g. the tx hash while confirming). */
  message?: string;
  hash?: string;
}

/** Why the wallet cannot be used for a flow right now. */
export type WalletGate = 'needLogin' | 'noWallet' | 'notConnected' | 'unavailable' | 'otherAccount';

export class WalletGateError extends Error {
  constructor(readonly gate: WalletGate) {
    super(`wallet gate: ${gate}`);
    this.name = 'WalletGateError';
  }
}

/** Minimal provider type (features/wallet's ConfluxProvider is structurally the same). */
export interface FlowProvider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}

export interface LinkedWallet {
  provider: FlowProvider;
  /** The wallet's account (as the wallet spells it) = the account's linked address. */
  address: string;
}

export type TxOutcome = { status: 'success'; hash: string } | { status: 'failed'; hash: string; reason: string } | { status: 'timeout'; hash: string };

type Translate = (key: any, vars?: any) => string;

export interface FlowDeps {
  t: Translate;
  linkedWallet(): Promise<LinkedWallet>;
  approve(provider: FlowProvider, tx: { from: string; collectible: string; to: string; tokenId: string }, onSent: (hash: string) => void): Promise<TxOutcome>;
  sign(provider: FlowProvider, address: string, typedData: PreOpenSale['typedData']): Promise<string>;
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

const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0');

/** Calldata of `approve(address to, uint256 tokenId)` (selector 0x095ea7b3); `to` in hex. */
export function approveCalldata(toHex: string, tokenId: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(toHex)) throw new TypeError(`approve: not a hex address: ${toHex}`);
  if (!/^\d{1,78}$/.test(tokenId)) throw new TypeError(`approve: bad token id: ${tokenId}`);
  return `0x095ea7b3${word(toHex)}${word(BigInt(tokenId).toString(16))}`;
}

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

/** approve(to, tokenId) with its two visible phases: waiting for the wallet, then confirming on chain. */
async function approveStep<S extends FlowStep>(
  deps: FlowDeps,
  step: S,
  onStep: OnStep<S>,
  wallet: LinkedWallet,
  tx: { collectible: string; to: string; tokenId: string },
): Promise<string> {
  onStep(step, { status: 'wallet' });
  let outcome: TxOutcome;
  try {
    outcome = await deps.approve(wallet.provider, { from: wallet.address, ...tx }, (hash) => onStep(step, { status: 'chain', hash }));
  } catch (err) {
    throw new StepFailure(step, deps.walletErrorText(err));
  }
  if (outcome.status === 'success') {
    onStep(step, { status: 'done', hash: outcome.hash });
    return outcome.hash;
  }
  const message = outcome.status === 'failed' ? deps.t('wallet.errors.txFailed', { reason: outcome.reason }) : deps.t('wallet.errors.txTimeout');
  throw new StepFailure(step, message);
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

/** List now / agree to a bid. */
export function runSell(input: SellInput, deps: FlowDeps, onStep: OnStep<SellStep>): Promise<FlowResult<SellValue>> {
  const { t } = deps;
  return run(onStep, async () => {
    // 1. prepare: the wallet first (so nothing is drafted for a wallet that cannot sign), then the draft.
    onStep('prepare', { status: 'active' });
    const wallet = await walletOf(deps, 'prepare');
    const pre = await deps.preOpenSale({ goodsId: input.goodsId, price: input.priceFen, ...(input.bid ? { bidId: input.bid.id } : {}) });
    if (!pre.ok || !pre.data) throw apiFailure(t, 'prepare', pre);
    const draft = pre.data;
    if (!sameAddress(draft.seller, wallet.address)) throw new StepFailure('prepare', gateMessage(t, 'otherAccount'), 'otherAccount');
    onStep('prepare', { status: 'done' });

    // 2. approve the exchange for the token (on shelf), unless it already is.
    let approveHash: string | undefined;
    if (draft.approved) onStep('approve', { status: 'skipped' });
    else approveHash = await approveStep(deps, 'approve', onStep, wallet, { collectible: draft.collectible, to: draft.exchangeHex, tokenId: draft.tokenId });

    // 3. sign the listOrder.
    onStep('sign', { status: 'wallet' });
    let signature: string;
    try {
      signature = await deps.sign(wallet.provider, wallet.address, draft.typedData);
    } catch (err) {
      throw new StepFailure('sign', deps.walletErrorText(err));
    }
    onStep('sign', { status: 'done' });

    // 4. submit.
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

    // 5. sync: informational (the listing is live already); a failure here is not the user's problem.
    onStep('sync', { status: 'active' });
    const n = await deps.notify({ goodsId: input.goodsId, action: 'open', ...(approveHash ? { txHash: approveHash } : {}) });
    onStep('sync', { status: 'done' });
    return { kind: 'listed' as const, listing: r.data, state: n.ok ? n.data : null };
  });
}

export interface OffShelfContext {
  /** Set once closeSale succeeded: what to approve(0) on chain (null when the server has no chain). */
  approveZero?: CloseSaleResult['approveZero'];
}

/**
 * Off shelf. `ctx` keeps what closeSale answered, so a retry after a failed wallet step starts
 * at `revoke` (the listing is already closed on the platform).
 */
export function runOffShelf(goodsId: number, deps: FlowDeps, onStep: OnStep<OffShelfStep>, ctx: OffShelfContext = {}): Promise<FlowResult<ChainListingState | null>> {
  const { t } = deps;
  return run(onStep, async () => {
    if (ctx.approveZero === undefined) {
      onStep('close', { status: 'active' });
      const r = await deps.closeSale({ goodsId });
      if (!r.ok || !r.data) throw apiFailure(t, 'close', r);
      ctx.approveZero = r.data.approveZero;
    }
    onStep('close', { status: 'done' });

    let hash: string | undefined;
    const zero = ctx.approveZero;
    if (!zero) onStep('revoke', { status: 'skipped' });
    else {
      onStep('revoke', { status: 'active' });
      const wallet = await walletOf(deps, 'revoke');
      hash = await approveStep(deps, 'revoke', onStep, wallet, { collectible: zero.collectible, to: zero.to, tokenId: zero.tokenId });
    }

    onStep('sync', { status: 'active' });
    const n = await deps.notify({ goodsId, action: 'close', ...(hash ? { txHash: hash } : {}) });
    onStep('sync', { status: 'done' });
    return n.ok ? n.data : null;
  });
}
