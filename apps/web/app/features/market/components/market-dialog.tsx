/**
 * The market's wallet-flow dialog (lazy chunk: it carries the flows, the wallet helpers and the
 * address codec): list now (price + cost preview, then cancel earlier orders → approve → sign →
 * openSale), agree to a bid (cost preview, then cancel → approve → sign → agreeBargin) and off
 * shelf (closeSale → cancelOrder → approve(0)). Every step shows its state; a failure names the
 * reason and offers a retry that resumes at the failed wallet step, and — for the trading gate —
 * the way out (verify the real name, connect the wallet, log in).
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { Price } from '../../../components/ui/price.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Thumb } from '../../../components/ui/thumb.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { getCost } from '../api/get-cost.ts';
import type { Cost } from '../api/types.ts';
import { flowDeps } from '../flow-deps.ts';
import { AGREE_STEPS, OFF_SHELF_STEPS, SELL_STEPS, runOffShelf, runSell, type FlowResult, type FlowStep, type OffShelfContext, type SellContext, type SellValue } from '../flows.ts';
import type { MarketDialogRequest } from '../dialog-request.ts';
import { fenToYuanText, yuanTextToFen } from '../money-input.ts';
import { FlowSteps, type StepMap } from './flow-steps.tsx';
import { useAuthOverlay, useWalletStore } from '../../../stores/app-stores.ts';

type Phase = 'form' | 'running' | 'failed' | 'done';
type Failure = Extract<FlowResult<unknown>, { ok: false }>;

export default function MarketDialog({ request, onClose, onDone }: { request: MarketDialogRequest; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>('form');
  const [steps, setSteps] = useState<StepMap>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [done, setDone] = useState<SellValue | { kind: 'closed' } | null>(null);
  const offShelfCtx = useRef<OffShelfContext>({});
  const sellCtx = useRef<SellContext>({});
  const succeeded = useRef(false);

  const close = () => {
    if (phase === 'running') return;
    onClose();
    if (succeeded.current) onDone();
  };

  const onStep = (step: FlowStep, update: StepMap[FlowStep]) => setSteps((s) => ({ ...s, [step]: update }));

  const start = async (priceFen?: number) => {
    setPhase('running');
    setFailure(null);
    const deps = flowDeps(t);
    if (request.kind === 'offShelf') {
      // A retry keeps the steps already done (the sale is closed on the platform).
      if (offShelfCtx.current.approveZero === undefined) setSteps({});
      const r = await runOffShelf(request.goods.id, deps, onStep, offShelfCtx.current);
      if (r.ok) {
        succeeded.current = true;
        setDone({ kind: 'closed' });
        setPhase('done');
      } else {
        if (offShelfCtx.current.approveZero !== undefined) succeeded.current = true;
        setFailure(r);
        setPhase('failed');
      }
      return;
    }
    // A retry after a refused wallet step keeps the draft and the steps done (sellCtx); else it starts over.
    if (!sellCtx.current.draft) setSteps({});
    const price = request.kind === 'agree' ? request.bid.amountFen : priceFen!;
    const r = await runSell({ goodsId: request.goods.id, priceFen: price, ...(request.kind === 'agree' ? { bid: { id: request.bid.id } } : {}) }, deps, onStep, sellCtx.current);
    if (r.ok) {
      succeeded.current = true;
      setDone(r.value);
      setPhase('done');
    } else {
      setFailure(r);
      setPhase('failed');
    }
  };

  const stepKeys = request.kind === 'offShelf' ? OFF_SHELF_STEPS : request.kind === 'agree' ? AGREE_STEPS : SELL_STEPS;
  const [lastPrice, setLastPrice] = useState<number | undefined>(undefined);

  return (
    <Dialog.Root open onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[150] bg-black/50" />
        <Dialog.Content
          data-testid="market-dialog"
          data-kind={request.kind}
          data-phase={phase}
          aria-describedby={undefined}
          onEscapeKeyDown={(e) => phase === 'running' && e.preventDefault()}
          onPointerDownOutside={(e) => phase === 'running' && e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-[151] max-h-[92vh] w-[min(480px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface px-6 pb-6 pt-5 shadow-pop"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <Dialog.Title className="text-xl font-semibold text-ink">{t(`market.dialog.${request.kind}Title`)}</Dialog.Title>
            <Dialog.Close
              className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink disabled:opacity-30"
              aria-label={t('common.close')}
              disabled={phase === 'running'}
              data-testid="market-dialog-close"
            >
              ×
            </Dialog.Close>
          </div>

          <div className="mb-4 flex items-center gap-3 rounded-control bg-canvas p-3">
            <Thumb src={request.goods.image} alt="" width={48} height={48} className="size-12 shrink-0 rounded-md bg-night-soft object-cover" />
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-ink">{request.goods.name}</p>
              {request.kind === 'offShelf' && request.goods.salePriceFen !== null && (
                <p className="text-xs text-ink-faint">
                  {t('market.dialog.currentPrice')} <Price fen={request.goods.salePriceFen} />
                </p>
              )}
              {request.kind === 'agree' && (
                <p className="text-xs text-ink-faint">
                  {t('market.dialog.bidBy', { name: request.bid.bidderNickname })} <Price fen={request.bid.amountFen} className="font-medium text-brand" />
                </p>
              )}
            </div>
          </div>

          {phase === 'form' && request.kind === 'sell' && (
            <SellForm
              goodsId={request.goods.id}
              initialFen={request.goods.lastPriceFen}
              onSubmit={(fen) => {
                setLastPrice(fen);
                void start(fen);
              }}
            />
          )}
          {phase === 'form' && request.kind === 'agree' && (
            <ConfirmPanel
              intro={t('market.dialog.agreeIntro')}
              cost={<CostPreview goodsId={request.goods.id} priceFen={request.bid.amountFen} />}
              confirm={t('market.dialog.agreeConfirm')}
              onConfirm={() => void start()}
            />
          )}
          {phase === 'form' && request.kind === 'offShelf' && (
            <ConfirmPanel intro={t('market.dialog.offShelfIntro')} confirm={t('market.dialog.offShelfConfirm')} onConfirm={() => void start()} />
          )}

          {phase !== 'form' && (
            <>
              <p className="mb-4 text-sm text-ink-soft">{t(`market.dialog.${request.kind}Hint`)}</p>
              <FlowSteps steps={stepKeys} state={steps} />
            </>
          )}

          {phase === 'failed' && failure && <FailureActions failure={failure} onRetry={() => void start(lastPrice)} onLeave={onClose} />}

          {phase === 'done' && done && (
            <div className="mt-5 rounded-control bg-success/10 p-4 text-sm text-success" role="status" data-testid="market-dialog-done">
              {done.kind === 'listed' && t('market.dialog.listedDone', { price: formatFen(done.listing.priceFen) })}
              {done.kind === 'agreed' && t('market.dialog.agreedDone', { orderNo: done.order.orderNo })}
              {done.kind === 'closed' && t('market.dialog.closedDone')}
            </div>
          )}
          {phase === 'done' && (
            <div className="mt-5 flex justify-end">
              <button type="button" className="btn-primary min-w-24" onClick={close} data-testid="market-dialog-finish">
                {t('market.dialog.finish')}
              </button>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ConfirmPanel({ intro, cost, confirm, onConfirm }: { intro: string; cost?: ReactNode; confirm: string; onConfirm: () => void }) {
  return (
    <div>
      <p className="text-sm text-ink-soft">{intro}</p>
      {cost}
      <div className="mt-5 flex justify-end">
        <button type="button" className="btn-primary min-w-28" onClick={onConfirm} data-testid="market-dialog-confirm">
          {confirm}
        </button>
      </div>
    </div>
  );
}

/** The price (yuan, two decimals at most → fen) and the cost preview before confirming. */
function SellForm({ goodsId, initialFen, onSubmit }: { goodsId: number; initialFen: number | null; onSubmit: (fen: number) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(initialFen ? fenToYuanText(initialFen) : '');
  const [error, setError] = useState('');
  const [agree, setAgree] = useState(false);
  const fen = parsePrice(text);
  const [costOk, setCostOk] = useState(false);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (fen === null) return setError(t('market.dialog.priceInvalid'));
    if (!agree) return setError(t('market.dialog.agreeRules'));
    if (!costOk) return;
    onSubmit(fen);
  };

  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor="sell-price" className="mb-1.5 block text-sm text-ink-soft">
        {t('market.dialog.price')}
      </label>
      <div className="relative">
        <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-ink-faint">￥</span>
        <input
          id="sell-price"
          className={`field-input tabular pl-8 ${error ? 'border-danger' : ''}`}
          inputMode="decimal"
          autoComplete="off"
          value={text}
          maxLength={14}
          placeholder={t('market.dialog.pricePlaceholder')}
          onChange={(e) => {
            setText(e.target.value);
            setError('');
          }}
          aria-invalid={error ? true : undefined}
          data-testid="sell-price"
        />
      </div>
      {error && (
        <p className="mt-1 text-xs text-danger" role="alert" data-testid="sell-price-error">
          {error}
        </p>
      )}
      {fen !== null ? <CostPreview goodsId={goodsId} priceFen={fen} onValid={setCostOk} /> : text.trim() !== '' && <p className="mt-3 text-xs text-danger">{t('market.dialog.priceInvalid')}</p>}
      <label className="mt-4 flex items-start gap-2 text-xs text-ink-soft">
        <input type="checkbox" className="mt-0.5" checked={agree} onChange={(e) => (setAgree(e.target.checked), setError(''))} data-testid="sell-agree" />
        <span>{t('market.dialog.rules')}</span>
      </label>
      <div className="mt-5 flex justify-end">
        <button type="submit" className="btn-primary min-w-28" disabled={fen === null || !costOk} data-testid="market-dialog-confirm">
          {t('market.dialog.sellConfirm')}
        </button>
      </div>
    </form>
  );
}

/** Yuan text → fen, positive, at most two decimals; null when not a price. */
export function parsePrice(text: string): number | null {
  const fen = yuanTextToFen(text);
  return fen !== null && fen > 0 ? fen : null;
}

/** GET /goods/v1/cost for the price (debounced): price, each deduction, total, and what the seller gets. */
function CostPreview({ goodsId, priceFen, onValid }: { goodsId: number; priceFen: number; onValid?: (ok: boolean) => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ status: 'loading' } | { status: 'ok'; cost: Cost } | { status: 'error'; message: string }>({ status: 'loading' });
  const validRef = useRef(onValid);
  validRef.current = onValid;

  useEffect(() => {
    const ctrl = new AbortController();
    setState({ status: 'loading' });
    validRef.current?.(false);
    const timer = setTimeout(() => {
      void getCost({ price: priceFen, goodsId }, ctrl.signal).then((r) => {
        if (ctrl.signal.aborted) return;
        if (r.ok && r.data) {
          setState({ status: 'ok', cost: r.data });
          validRef.current?.(true);
        } else setState({ status: 'error', message: r.networkError ? t('market.flow.network') : r.message || t('common.requestFailed') });
      });
    }, 250);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [goodsId, priceFen, t]);

  return (
    <div className="mt-4 rounded-control border border-line p-3 text-sm" data-testid="cost-preview" data-status={state.status}>
      {state.status === 'loading' && (
        <p className="flex items-center gap-2 text-ink-faint">
          <Spinner /> {t('market.cost.loading')}
        </p>
      )}
      {state.status === 'error' && (
        <p className="text-danger" role="alert" data-testid="cost-error">
          {state.message}
        </p>
      )}
      {state.status === 'ok' && (
        <dl className="space-y-1.5">
          <div className="flex justify-between">
            <dt className="text-ink-faint">{t('market.cost.price')}</dt>
            <dd>
              <Price fen={state.cost.priceFen} />
            </dd>
          </div>
          {state.cost.costs.map((c) => (
            <div key={c.type} className="flex justify-between" data-testid={`cost-item-${c.type}`}>
              <dt className="text-ink-faint">
                {c.name}（{(c.permille / 10).toFixed(c.permille % 10 ? 1 : 0)}%）
              </dt>
              <dd className="tabular">-{formatFen(c.amountFen)}</dd>
            </div>
          ))}
          <div className="flex justify-between border-t border-line pt-1.5">
            <dt className="text-ink-faint">{t('market.cost.total')}</dt>
            <dd className="tabular" data-testid="cost-total">
              {formatFen(state.cost.total)}
            </dd>
          </div>
          <div className="flex justify-between font-medium">
            <dt className="text-ink">{t('market.cost.income')}</dt>
            <dd>
              <Price fen={state.cost.incomeFen} className="text-brand" testId="cost-income" />
            </dd>
          </div>
        </dl>
      )}
    </div>
  );
}

function FailureActions({ failure, onRetry, onLeave }: { failure: Failure; onRetry: () => void; onLeave: () => void }) {
  const { t } = useTranslation();
  const user = useUserStore();
  const gate = failure.gate;
  const tradeGate = failure.code === '1011';
  const needWallet = gate === 'noWallet' || gate === 'notConnected' || gate === 'otherAccount' || gate === 'unavailable' || (tradeGate && user.isRealname === '1' && !user.walletAddress);
  const needRealname = tradeGate && user.isRealname !== '1';
  return (
    <div className="mt-5 flex flex-wrap items-center justify-end gap-2" data-testid="market-dialog-failed">
      {gate === 'needLogin' && (
        <button type="button" className="btn-ghost" onClick={() => (onLeave(), useAuthOverlay.getState().openOverlay('login'))}>
          {t('header.login')}
        </button>
      )}
      {needRealname && (
        <Link to="/personal-center/account-settings#realname" className="btn-ghost" onClick={onLeave} data-testid="flow-verify-realname">
          {t('market.gate.verifyRealname')}
        </Link>
      )}
      {needWallet && (
        <button type="button" className="btn-ghost" onClick={() => (onLeave(), useWalletStore.getState().openDialog())} data-testid="flow-connect-wallet">
          {t('header.linkWallet')}
        </button>
      )}
      <button type="button" className="btn-primary" onClick={onRetry} data-testid="flow-retry">
        {t('market.dialog.retry')}
      </button>
    </div>
  );
}
