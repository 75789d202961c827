import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import type { LIMITS } from '@cfx/contract/limits.ts';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import type { ApiResult } from '../../../lib/api.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { useCancelOrder } from '../hooks/use-cancel-order.ts';
import { createOrder } from '../api/create-order.ts';
import type { OrderDetail } from '../../../lib/orders/types.ts';
import { goodsPath, isAwaitingPayment, isClosed, textGroup } from '../../../lib/orders/status.ts';
import { DeadlineCountdown } from '../../../components/countdown/countdown.tsx';
import { OrderSummary } from './order-summary.tsx';
import { useOrder } from '../../../lib/orders/use-order.ts';
import { useAuthOverlay, useWalletStore } from '../../../stores/app-stores.ts';

/** (a literal checked against the contract's type; no runtime import). */
const MINIMUM_AGE: (typeof LIMITS)['minimumAge'] = 18;

/** One createOrder per goods at a time, even when an effect runs twice (React StrictMode in development). */
const inFlight = new Map<string, Promise<ApiResult<OrderDetail>>>();
function createOnce(token: string, goodsId: number) {
  const key = `${token}:${goodsId}`;
  let p = inFlight.get(key);
  if (!p) {
    p = createOrder({ goodsId });
    inFlight.set(key, p);
    void p.finally(() => setTimeout(() => inFlight.delete(key), 2000));
  }
  return p;
}

/**
 * The buy flow (/object-buy?goodsId=…): createOrder reserves the listing for the payment window;
 * the reserved order is shown with its countdown, then → /pay?orderNo=…. The order number is put
 * in the URL so a reload shows the same order instead of ordering again. `compact` is the card
 * variant (/object-buy/conponents/card).
 */
export function BuyView({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const goodsId = Number(params.get('goodsId'));
  const orderNo = params.get('orderNo') ?? '';
  const client = useQueryClient();
  const [failure, setFailure] = useState<{ message: string; status: string } | null>(null);

  // The answer of createOrder, read with the latest URL and language (not a reason to order again).
  const created = useEffectEvent((r: Awaited<ReturnType<typeof createOnce>>, token: string) => {
    if (r.ok && r.data) {
      client.setQueryData(['order', r.data.orderNo, token], r.data);
      if (r.message) toast.success(r.message);
      const next = new URLSearchParams(params);
      next.set('orderNo', r.data.orderNo);
      setParams(next, { replace: true });
    } else setFailure({ message: r.networkError ? t('orders.network') : r.message || t('common.requestFailed'), status: r.status });
  });
  useEffect(() => {
    if (!hydrated || !token || orderNo || !Number.isSafeInteger(goodsId) || goodsId <= 0) return;
    let alive = true;
    // The order is created once per goods (not per render).
    void createOnce(token, goodsId).then((r) => {
      if (alive) created(r, token);
    });
    return () => {
      alive = false;
    };
  }, [hydrated, token, goodsId, orderNo]);

  const wrap = (body: ReactNode, status: string) => (
    <div className={compact ? 'mx-auto max-w-md py-8' : 'page-width max-w-3xl py-8'} data-testid="object-buy" data-status={status}>
      <h1 className="mb-5 text-2xl text-ink">{t('orders.buyTitle')}</h1>
      {body}
    </div>
  );

  if (!hydrated) return wrap(<LoadingBlock label={t('common.loading')} />, 'loading');
  if (!token) {
    return wrap(
      <div className="card p-8 text-center">
        <p className="text-ink-soft">{t('orders.loginToBuy')}</p>
        <button type="button" className="btn-primary mt-4" onClick={() => useAuthOverlay.getState().openOverlay('login')} data-testid="object-buy-login">
          {t('header.login')}
        </button>
      </div>,
      'guest',
    );
  }
  if (!orderNo && (!Number.isSafeInteger(goodsId) || goodsId <= 0)) {
    // /object-buy?projectId=… is the primary sale's entry (the dropping page): not part of the consignment market.
    const projectId = Number(params.get('projectId'));
    if (Number.isSafeInteger(projectId) && projectId > 0) {
      return wrap(
        <div className="card p-8 text-center" data-testid="object-buy-primary">
          <p className="text-ink-soft">{t('drops.chooseOnRelease')}</p>
          <Link to={`/projects/dropping/${projectId}`} className="btn-ghost mt-4">
            {t('orders.backToRelease')}
          </Link>
        </div>,
        'primary',
      );
    }
    return wrap(<Failure message={t('orders.noGoods')} status="" goodsId={null} />, 'failed');
  }
  if (!orderNo) return wrap(failure ? <Failure {...failure} goodsId={goodsId} /> : <LoadingBlock label={t('orders.reserving')} />, failure ? 'failed' : 'creating');
  return wrap(<ReservedOrder orderNo={orderNo} compact={compact} />, 'order');
}

function Failure({ message, status, goodsId }: { message: string; status: string; goodsId: number | null }) {
  const { t } = useTranslation();
  const isRealname = useUserStore((s) => s.isRealname);
  const walletAddress = useUserStore((s) => s.walletAddress);
  const isLoginWallet = useUserStore((s) => s.isLoginWallet);
  const gate = status === '1011';
  return (
    <div className="card p-8 text-center" data-testid="object-buy-error" data-code={status}>
      <p className="text-base text-danger" role="alert">
        {message}
      </p>
      <div className="mt-5 flex flex-wrap justify-center gap-2">
        {gate && isRealname !== '1' && (
          <Link to="/personal-center/account-settings#realname" className="btn-primary" data-testid="object-buy-verify">
            {t('market.gate.verifyRealname')}
          </Link>
        )}
        {gate && isRealname === '1' && (!walletAddress || !isLoginWallet) && (
          <button type="button" className="btn-primary" onClick={() => useWalletStore.getState().openDialog()} data-testid="object-buy-wallet">
            {t('header.linkWallet')}
          </button>
        )}
        {status === '1015' && (
          <Link to="/personal-center/txn-details?tab=buy&status=pending" className="btn-primary">
            {t('orders.myPending')}
          </Link>
        )}
        {goodsId !== null && (
          <Link to={`/assets/${goodsId}`} className="btn-ghost" data-testid="object-buy-back">
            {t('orders.backToAsset')}
          </Link>
        )}
        <Link to="/sales" className="btn-ghost">
          {t('orders.toMarket')}
        </Link>
      </div>
    </div>
  );
}

function ReservedOrder({ orderNo, compact }: { orderNo: string; compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const q = useOrder(orderNo, { pollMs: 5000 });
  const cancel = useCancelOrder(() => void q.refetch());
  if (q.isPending) return <LoadingBlock label={t('orders.loading')} />;
  if (q.isError) return <Failure message={q.error.message || t('orders.loadFailed')} status="" goodsId={null} />;
  const o = q.data;
  const awaiting = isAwaitingPayment(o.status) && o.remainingMs > 0;
  return (
    <div className="space-y-5">
      {awaiting && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-card bg-warning/10 px-5 py-4" data-testid="object-buy-reserved">
          <p className="text-sm text-warning">{t('orders.reserved')}</p>
          <p className="text-sm text-warning">
            {t('orders.payWithin')} <DeadlineCountdown deadline={q.deadline} className="text-lg text-warning" onEnd={() => void q.refetch()} />
          </p>
        </div>
      )}
      {isClosed(o.status) && (
        <p className="rounded-card bg-canvas px-5 py-4 text-sm text-ink-soft" data-testid="object-buy-closed">
          {t(`${textGroup(o.kind)}.explain.${o.status}`)}
        </p>
      )}
      <section className="card p-6">
        <OrderSummary order={o} compact={compact} />
      </section>
      {awaiting && o.role === 'buyer' && (
        <>
          <ul className="list-disc space-y-1 rounded-card bg-surface px-9 py-4 text-xs leading-6 text-ink-soft">
            <li>{t('orders.noticeVirtual')}</li>
            <li>{t('orders.noticeGate', { age: MINIMUM_AGE })}</li>
            <li>{t('orders.noticeSettle')}</li>
          </ul>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-ghost h-11" disabled={cancel.isPending} onClick={() => cancel.mutate(o.orderNo)} data-testid="object-buy-cancel">
              {t('orders.cancel')}
            </button>
            <button type="button" className="btn-primary h-11 min-w-40 text-base" onClick={() => void navigate(`/pay?orderNo=${encodeURIComponent(o.orderNo)}`)} data-testid="object-buy-pay">
              {t('orders.goPay')}
            </button>
          </div>
        </>
      )}
      {!awaiting && !isClosed(o.status) && (
        <div className="flex justify-end">
          <Link to={`/personal-center/conmponents/pamentSuccess?orderNo=${encodeURIComponent(o.orderNo)}`} className="btn-primary" data-testid="object-buy-status">
            {t('orders.viewStatus')}
          </Link>
        </div>
      )}
      {isClosed(o.status) && (
        <div className="flex justify-end gap-2">
          <Link to={goodsPath(o)} className="btn-ghost">
            {t(o.kind === 'drop' ? 'orders.backToRelease' : 'orders.backToAsset')}
          </Link>
        </div>
      )}
    </div>
  );
}
