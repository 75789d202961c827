import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { createDropOrder } from '../api/create-drop-order.ts';
import { nowStint } from '../api/now-stint.ts';
import type { NowStint } from '../api/types.ts';
import { useAuthOverlay, useWalletStore } from '../../../stores/app-stores.ts';

/** While the page is open the buyer's limit and the live stock are refreshed this often. */
const STINT_REFRESH_MS = 4000;

type Failure = { message: string; status: string };

/**
 * The buy box of a dropping page: quantity picker (bounded by the identity's remaining limit, the
 * most per order and the stock), the limit and how many this identity already bought, and the buy
 * button — enabled exactly when the sale starts by server time (`open` comes from the page's
 * server clock, no reload needed). Buying: createOrder {projectId, count} → /object-buy with the
 * reserved order. 排队中 / 已售罄 / limit answers are shown with a retry; logged out, no real name
 * or no wallet show the same gate as the resale buy (log in, verify, link a wallet).
 */
export function DropBuyPanel({ projectId, open, soldOut, blocked = null }: { projectId: number; open: boolean; soldOut: boolean; blocked?: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const isRealname = useUserStore((s) => s.isRealname);
  const walletAddress = useUserStore((s) => s.walletAddress);
  const [stint, setStint] = useState<NowStint | null>(null);
  const [count, setCount] = useState(1);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  useEffect(() => {
    if (!token) {
      setStint(null);
      return;
    }
    let alive = true;
    const load = async () => {
      if (document.visibilityState !== 'visible') return;
      const r = await nowStint(projectId);
      if (alive && r.ok) setStint(r.data);
    };
    void load();
    const id = window.setInterval(() => void load(), STINT_REFRESH_MS);
    return () => {
      alive = false;
      window.clearInterval(id);
    };
  }, [token, projectId]);

  const max = stint ? Math.max(0, Math.min(stint.remaining, stint.maxPerOrder, stint.stockRemaining)) : 1;
  useEffect(() => {
    if (count > Math.max(1, max)) setCount(Math.max(1, max));
  }, [max, count]);

  const buy = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    const r = await createDropOrder({ projectId, count });
    if (r.ok && r.data) {
      void navigate(`/object-buy?projectId=${projectId}&orderNo=${encodeURIComponent(r.data.orderNo)}`);
      return;
    }
    setBusy(false);
    setFailure({ message: r.networkError ? t('orders.network') : r.message || t('common.requestFailed'), status: r.status });
    const s = await nowStint(projectId);
    if (s.ok) setStint(s.data);
  };

  if (!hydrated) {
    return <div className="mt-8 h-12 animate-pulse rounded-control bg-canvas" data-testid="drop-buy-loading" aria-hidden />;
  }
  if (!token) {
    return (
      <div className="mt-8" data-testid="drop-buy" data-state="guest">
        <button type="button" className="btn-primary h-12 w-full text-base" onClick={() => useAuthOverlay.getState().openOverlay('login')} data-testid="drop-login">
          {t('drops.loginToBuy')}
        </button>
      </div>
    );
  }
  const gate = isRealname === '0' ? 'realname' : isRealname === '1' && !walletAddress ? 'wallet' : null;
  const limitReached = stint !== null && stint.verified && stint.remaining <= 0;
  const noStock = soldOut || (stint !== null && stint.stockRemaining <= 0);
  // `blocked`: the current sale phase does not let this user buy (not whitelisted, not a winner, sign-up, …) — its reason is the label.
  const canBuy = open && !blocked && !noStock && !limitReached && !gate && !busy && max >= 1;
  const label = !open ? t('catalog.notStarted') : noStock ? t('catalog.status.sold_out') : blocked ? blocked : limitReached ? t('drops.limitReached') : t('catalog.buyNow');

  return (
    <div className="mt-8 space-y-4" data-testid="drop-buy" data-state={canBuy ? 'ready' : 'closed'}>
      {stint && !blocked && (
        <p className="text-sm text-ink-soft" data-testid="drop-limit" data-limit={stint.limit} data-bought={stint.bought} data-remaining={stint.remaining}>
          {t('drops.limitLine', { limit: stint.limit, bought: stint.bought, remaining: stint.remaining })}
        </p>
      )}
      {gate === 'realname' && (
        <p className="rounded-control bg-warning/10 px-3 py-2 text-sm text-warning" data-testid="drop-gate" data-gate="realname">
          {t('drops.gateRealname')}{' '}
          <Link to="/personal-center/account-settings#realname" className="font-medium text-brand hover:underline">
            {t('market.gate.verifyRealname')}
          </Link>
        </p>
      )}
      {gate === 'wallet' && (
        <p className="rounded-control bg-warning/10 px-3 py-2 text-sm text-warning" data-testid="drop-gate" data-gate="wallet">
          {t('drops.gateWallet')}{' '}
          <button type="button" className="font-medium text-brand hover:underline" onClick={() => useWalletStore.getState().openDialog()}>
            {t('header.linkWallet')}
          </button>
        </p>
      )}
      <div className="flex items-center gap-4">
        <span className="text-sm text-ink-soft">{t('drops.quantity')}</span>
        <div className="inline-flex items-center rounded-control border border-line" role="group" aria-label={t('drops.quantity')}>
          <button type="button" className="h-10 w-10 text-lg text-ink disabled:text-ink-faint" disabled={count <= 1} onClick={() => setCount((c) => Math.max(1, c - 1))} aria-label={t('drops.less')} data-testid="drop-less">
            −
          </button>
          <span className="tabular w-10 text-center text-base text-ink" data-testid="drop-count" aria-live="polite">
            {count}
          </span>
          <button type="button" className="h-10 w-10 text-lg text-ink disabled:text-ink-faint" disabled={count >= max} onClick={() => setCount((c) => Math.min(max, c + 1))} aria-label={t('drops.more')} data-testid="drop-more">
            +
          </button>
        </div>
        {stint && <span className="text-xs text-ink-faint">{t('drops.maxPerOrder', { n: stint.maxPerOrder })}</span>}
      </div>
      <button type="button" className="btn-primary h-12 w-full text-base disabled:cursor-not-allowed disabled:opacity-60" disabled={!canBuy} onClick={() => void buy()} data-testid="buy-entry">
        {busy ? <Spinner /> : null}
        {label}
      </button>
      {failure && (
        <div className="rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="drop-error" data-code={failure.status}>
          <span>{failure.message}</span>
          {failure.status === '1011' && isRealname !== '1' && (
            <Link to="/personal-center/account-settings#realname" className="ml-2 text-brand hover:underline">
              {t('market.gate.verifyRealname')}
            </Link>
          )}
          {failure.status === '1011' && isRealname === '1' && (
            <button type="button" className="ml-2 text-brand hover:underline" onClick={() => useWalletStore.getState().openDialog()}>
              {t('header.linkWallet')}
            </button>
          )}
          {(failure.status === '1021' || failure.status === '' || failure.status === '9999') && (
            <button type="button" className="ml-2 font-medium text-brand hover:underline" onClick={() => void buy()} data-testid="drop-retry">
              {t('common.retry')}
            </button>
          )}
          {failure.status === '1015' && (
            <Link to="/personal-center/txn-details?tab=buy&status=pending" className="ml-2 text-brand hover:underline">
              {t('orders.myPending')}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}
