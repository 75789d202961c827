/**
 * The asset page's market pieces: buy now, list now (the owner), the
 * off-shelf card (the owner of a listed collectible), bid info with make-a-bid (others) and
 * agree (the owner), the trading notice, and a favourite toggle. Self-contained: give it the
 * goods detail object of GET /goods/v1/details/. Who is looking is known only in the browser
 * (the token lives in localStorage), so the server renders the visitor's view.
 *
 * The wallet flows (approve → sign → openSale, closeSale → approve(0), agree to a bid) run in a
 * lazy dialog (market-dialog.tsx); nothing of the wallet code is in this module.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useRevalidator } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import type { LIMITS } from '@cfx/contract/limits.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { formatCnDateTime } from '../../components/ui/cn-time.ts';
import { Price } from '../../components/ui/price.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toast } from '../../stores/toast.ts';
import { useUserStore } from '../../stores/user.ts';
import { getBidStatistics } from '../../lib/market-api/bid-statistics.ts';
import { cancelBid } from '../../lib/market-api/cancel-bid.ts';
import { getCommonInfo } from './api/get-common-info.ts';
import { listBids } from './api/list-bids.ts';
import { placeBid } from './api/place-bid.ts';
import { toggleLove } from '../../lib/market-api/toggle-love.ts';
import type { Bid, GoodsDetail } from './api/types.ts';
import { MarketDialogHost } from './components/market-dialog-host.tsx';
import type { MarketDialogRequest } from './dialog-request.ts';
import { yuanTextToFen } from './money-input.ts';
import { useRemote } from './use-remote.ts';
import { useAuthOverlay, useWalletStore } from '../../stores/app-stores.ts';

/** The fields of the goods detail these pieces use. */
export type AssetGoods = Pick<
  GoodsDetail,
  'id' | 'name' | 'image' | 'status' | 'salePriceFen' | 'lastPriceFen' | 'chainStatus' | 'tokenId' | 'owner' | 'holdingDays' | 'transferableAt' | 'listedAt' | 'serverTime'
>;

type Viewer = 'guest' | 'owner' | 'other';

const BID_DAYS = [1, 3, 7, 15] as const;
/** (a literal checked against the contract's type; no runtime import). */
const MINIMUM_AGE: (typeof LIMITS)['minimumAge'] = 18;
const DAY_MS = 86_400_000;

function useViewer(goods: AssetGoods): { viewer: Viewer; ready: boolean } {
  const token = useUserStore((s) => s.token);
  const accountId = useUserStore((s) => s.accountId);
  const profileLoaded = useUserStore((s) => s.profileLoaded);
  if (!token) return { viewer: 'guest', ready: true };
  if (!profileLoaded) return { viewer: 'other', ready: false };
  return { viewer: accountId !== '' && accountId === goods.owner.accountId ? 'owner' : 'other', ready: true };
}

const openLogin = () => useAuthOverlay.getState().openOverlay('login');

export function AssetActions({ goods }: { goods: AssetGoods }) {
  const { t } = useTranslation();
  const { viewer, ready } = useViewer(goods);
  const revalidator = useRevalidator();
  const [dialog, setDialog] = useState<MarketDialogRequest | null>(null);
  const [bidsVersion, setBidsVersion] = useState(0);
  const dialogGoods = { id: goods.id, name: goods.name, image: goods.image, salePriceFen: goods.salePriceFen, lastPriceFen: goods.lastPriceFen };

  return (
    <div className="mt-10 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.3fr)]" data-testid="asset-market" data-viewer={viewer} data-ready={ready ? 'true' : 'false'}>
      <div className="space-y-6">
        <TradePanel goods={goods} viewer={viewer} ready={ready} onSell={() => setDialog({ kind: 'sell', goods: dialogGoods })} onOffShelf={() => setDialog({ kind: 'offShelf', goods: dialogGoods })} />
        <Notice goods={goods} />
      </div>
      <BidInfo
        key={`${goods.id}:${bidsVersion}`}
        goods={goods}
        viewer={viewer}
        onAgree={(bid) => setDialog({ kind: 'agree', goods: dialogGoods, bid: { id: bid.id, amountFen: bid.amountFen, bidderNickname: bid.bidder.nickname } })}
      />
      <MarketDialogHost
        request={dialog}
        onClose={() => setDialog(null)}
        onDone={() => {
          setBidsVersion((v) => v + 1);
          void revalidator.revalidate();
        }}
      />
      <span className="sr-only" aria-live="polite">
        {revalidator.state === 'loading' ? t('common.loading') : ''}
      </span>
    </div>
  );
}

function Panel({ title, testId, children, aside, attrs }: { title: string; testId: string; children: ReactNode; aside?: ReactNode; attrs?: Record<string, string> }) {
  return (
    <section className="card p-5" data-testid={testId} aria-label={title} {...attrs}>
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 className="text-base text-ink">{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** Buy now / list now / the off-shelf card, by who is looking and the goods' state. */
function TradePanel({ goods, viewer, ready, onSell, onOffShelf }: { goods: AssetGoods; viewer: Viewer; ready: boolean; onSell: () => void; onOffShelf: () => void }) {
  const { t } = useTranslation();
  const onSale = goods.status === 'on_sale' && goods.salePriceFen !== null;
  const minted = goods.chainStatus === 'minted' && goods.tokenId !== null;
  const holdingUntil = goods.holdingDays > 0 && goods.transferableAt > goods.serverTime ? goods.transferableAt : null;
  return (
    <Panel title={t('market.trade')} testId="market-trade" attrs={{ 'data-on-sale': onSale ? 'true' : 'false' }} aside={<LoveButton key={goods.id} goodsId={goods.id} />}>
      {!ready ? (
        <p className="flex items-center gap-2 text-sm text-ink-faint" role="status">
          <Spinner /> {t('common.loading')}
        </p>
      ) : goods.status === 'burned' ? (
        // A blind box opened or a fragment composed: gone on chain, nothing to trade.
        <p className="text-sm text-ink-soft" data-testid="market-burned">
          {t('goodsFlow.burned')}
        </p>
      ) : viewer === 'owner' ? (
        onSale ? (
          // The off-shelf card.
          <div data-testid="off-shelf-card">
            <p className="text-xs text-ink-faint">{t('market.onSaleAt')}</p>
            <Price fen={goods.salePriceFen} className="mt-1 block text-2xl font-bold text-brand" testId="market-sale-price" />
            {goods.listedAt && <p className="tabular mt-1 text-xs text-ink-faint">{t('market.listedAt', { time: formatCnDateTime(goods.listedAt) })}</p>}
            <button type="button" className="btn-ghost mt-4 w-full" onClick={onOffShelf} data-testid="market-off-shelf">
              {t('market.offShelf')}
            </button>
            <p className="mt-2 text-xs text-ink-faint">{t('market.offShelfHint')}</p>
          </div>
        ) : (
          <div data-testid="list-now-card">
            <p className="text-sm text-ink-soft">{t('market.ownerHeld')}</p>
            {!minted ? (
              <p className="mt-3 text-sm text-warning" data-testid="market-not-minted">
                {t('market.notMinted')}
              </p>
            ) : holdingUntil ? (
              <p className="mt-3 text-sm text-warning" data-testid="market-holding">
                {t('market.holdingUntil', { time: formatCnDateTime(holdingUntil) })}
              </p>
            ) : null}
            <button type="button" className="btn-primary mt-4 h-11 w-full text-base" disabled={!minted || holdingUntil !== null} onClick={onSell} data-testid="market-list-now">
              {t('market.listNow')}
            </button>
            <p className="mt-2 text-xs text-ink-faint">{t('market.listNowHint')}</p>
          </div>
        )
      ) : onSale ? (
        <div data-testid="buy-now-card">
          <p className="text-xs text-ink-faint">{t('market.askingPrice')}</p>
          <Price fen={goods.salePriceFen} className="mt-1 block text-2xl font-bold text-brand" />
          {viewer === 'guest' ? (
            <button type="button" className="btn-primary mt-4 h-11 w-full text-base" onClick={openLogin} data-testid="market-buy-now">
              {t('market.buyNow')}
            </button>
          ) : (
            <Link to={`/object-buy?goodsId=${goods.id}`} className="btn-primary mt-4 h-11 w-full text-base" data-testid="market-buy-now">
              {t('market.buyNow')}
            </Link>
          )}
        </div>
      ) : (
        <p className="text-sm text-ink-soft" data-testid="market-not-for-sale">
          {t('market.notForSale')}
        </p>
      )}
    </Panel>
  );
}

/** Favourite toggle (goods/v1/love). The detail call does not say whether I favourited it, so the state shows after the first toggle. */
function LoveButton({ goodsId }: { goodsId: number }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const [state, setState] = useState<{ loved: boolean; count: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    if (!token) return openLogin();
    setBusy(true);
    const r = await toggleLove(goodsId);
    setBusy(false);
    if (r.ok && r.data) {
      setState({ loved: r.data.loved, count: r.data.loveCount });
      toast.success(r.data.loved ? t('market.loved') : t('market.unloved'));
    }
  };
  return (
    <button
      type="button"
      onClick={() => void onClick()}
      disabled={busy}
      aria-pressed={state ? state.loved : undefined}
      className={`inline-flex h-8 items-center gap-1 rounded-full border px-3 text-xs transition-colors ${state?.loved ? 'border-brand bg-brand-soft text-brand' : 'border-line text-ink-soft hover:border-brand hover:text-brand'}`}
      data-testid="market-love"
      data-loved={state ? String(state.loved) : 'unknown'}
    >
      <span aria-hidden>{state?.loved ? '♥' : '♡'}</span>
      {state?.loved ? t('market.lovedLabel') : t('market.love')}
      {state && <span className="tabular text-ink-faint">{state.count}</span>}
    </button>
  );
}

/** Bid info: the active bids (highest first), my statistics, make a bid (others), agree (the owner). */
function BidInfo({ goods, viewer, onAgree }: { goods: AssetGoods; viewer: Viewer; onAgree: (bid: Bid) => void }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const bids = useRemote(`bids:${goods.id}:${token}`, () => listBids({ goodsId: goods.id, pageNum: 1, pageSize: 20 }));
  const stats = useRemote(token ? `bid-stats:${token}:${goods.id}` : null, getBidStatistics);
  const [cancelling, setCancelling] = useState<number | null>(null);
  const reload = () => {
    bids.reload();
    stats.reload();
  };

  const onCancel = async (bid: Bid) => {
    setCancelling(bid.id);
    const r = await cancelBid(bid.id);
    setCancelling(null);
    if (r.ok) {
      toast.success(r.message || t('market.bids.cancelled'));
      reload();
    }
  };

  const list = bids.data?.list ?? [];
  return (
    <Panel
      title={t('market.bids.title')}
      testId="market-bids"
      attrs={{ 'data-status': bids.loading && !bids.data ? 'loading' : bids.error ? 'error' : list.length ? 'ready' : 'empty' }}
      aside={bids.data ? <span className="text-xs text-ink-faint">{t('market.bids.count', { count: bids.data.total })}</span> : undefined}
    >
      {stats.data && viewer !== 'guest' && (
        <p className="mb-3 rounded-control bg-canvas px-3 py-2 text-xs text-ink-soft" data-testid="bid-stats">
          {viewer === 'owner'
            ? t('market.bids.statsOwner', { count: stats.data.receivedActive, goods: stats.data.receivedGoods, top: formatFen(stats.data.highestReceivedFen) || '—' })
            : t('market.bids.statsBidder', { count: stats.data.sentActive, accepted: stats.data.sentAccepted })}
        </p>
      )}
      {bids.loading && !bids.data ? (
        <p className="flex items-center gap-2 py-6 text-sm text-ink-faint" role="status" data-testid="bids-loading">
          <Spinner /> {t('common.loading')}
        </p>
      ) : bids.error ? (
        <p className="py-6 text-center text-sm text-ink-faint" data-testid="bids-error">
          {t('market.bids.loadFailed')}{' '}
          <button type="button" className="text-brand hover:underline" onClick={reload} data-testid="bids-retry">
            {t('common.retry')}
          </button>
        </p>
      ) : list.length === 0 ? (
        <p className="py-6 text-center text-sm text-ink-faint" data-testid="bids-empty">
          {t('market.bids.empty')}
        </p>
      ) : (
        <ul className="divide-y divide-line">
          {list.map((b) => (
            <li key={b.id} className="flex items-center gap-3 py-2.5" data-testid="bid-row" data-id={b.id} data-mine={b.mine ? 'true' : 'false'}>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm text-ink">
                  {b.bidder.nickname}
                  {b.mine && <span className="ml-2 rounded bg-brand-soft px-1.5 py-0.5 text-[11px] text-brand">{t('market.bids.mine')}</span>}
                </p>
                <p className="tabular text-xs text-ink-faint">{t('market.bids.until', { time: formatCnDateTime(b.expiresAt, false) })}</p>
              </div>
              <Price fen={b.amountFen} className="font-semibold text-ink" testId="bid-amount" />
              {viewer === 'owner' && (
                <button type="button" className="btn-primary h-8 px-3 text-xs" onClick={() => onAgree(b)} data-testid="bid-agree">
                  {t('market.bids.agree')}
                </button>
              )}
              {b.mine && (
                <button type="button" className="btn-ghost h-8 px-3 text-xs" disabled={cancelling === b.id} onClick={() => void onCancel(b)} data-testid="bid-cancel">
                  {t('market.bids.cancel')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {viewer === 'other' && goods.chainStatus === 'minted' && <BidForm goodsId={goods.id} onPlaced={reload} />}
      {viewer === 'guest' && (
        <button type="button" className="btn-ghost mt-4 w-full" onClick={openLogin} data-testid="bid-login">
          {t('market.bids.loginToBid')}
        </button>
      )}
    </Panel>
  );
}

function BidForm({ goodsId, onPlaced }: { goodsId: number; onPlaced: () => void }) {
  const { t } = useTranslation();
  const user = useUserStore();
  const [text, setText] = useState('');
  const [days, setDays] = useState<number>(7);
  const [error, setError] = useState<{ message: string; code?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fen = yuanTextToFen(text);
    if (fen === null || fen <= 0) return setError({ message: t('market.dialog.priceInvalid') });
    setBusy(true);
    setError(null);
    const r = await placeBid({ goodsId, amount: fen, expiresAt: Date.now() + days * DAY_MS });
    setBusy(false);
    if (r.ok) {
      toast.success(r.message || t('market.bids.placed'));
      setText('');
      onPlaced();
    } else setError({ message: r.networkError ? t('market.flow.network') : r.message || t('common.requestFailed'), code: r.status });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="mt-4 border-t border-line pt-4" data-testid="bid-form">
      <p className="mb-2 text-sm text-ink">{t('market.bids.make')}</p>
      <div className="flex flex-wrap gap-2">
        <div className="relative min-w-36 flex-1">
          <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-ink-faint">￥</span>
          <input
            className="field-input tabular h-10 pl-8"
            inputMode="decimal"
            value={text}
            maxLength={14}
            placeholder={t('market.bids.amountPlaceholder')}
            aria-label={t('market.bids.amount')}
            onChange={(e) => (setText(e.target.value), setError(null))}
            data-testid="bid-amount-input"
          />
        </div>
        <select className="field-input h-10 w-auto" value={days} onChange={(e) => setDays(Number(e.target.value))} aria-label={t('market.bids.validity')} data-testid="bid-days">
          {BID_DAYS.map((d) => (
            <option key={d} value={d}>
              {t('market.bids.days', { count: d })}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-primary h-10" disabled={busy} data-testid="bid-submit">
          {busy ? <Spinner /> : null}
          {t('market.bids.submit')}
        </button>
      </div>
      {error && (
        <div className="mt-2 text-xs text-danger" role="alert" data-testid="bid-error">
          {error.message}
          {error.code === '1011' && user.isRealname !== '1' && (
            <Link to="/personal-center/account-settings#realname" className="ml-2 text-brand hover:underline">
              {t('market.gate.verifyRealname')}
            </Link>
          )}
          {error.code === '1011' && user.isRealname === '1' && (
            <button type="button" className="ml-2 text-brand hover:underline" onClick={() => useWalletStore.getState().openDialog()}>
              {t('header.linkWallet')}
            </button>
          )}
        </div>
      )}
      <p className="mt-2 text-xs text-ink-faint">{t('market.bids.hint')}</p>
    </form>
  );
}

/** The trading notice: who may trade, virtual goods, the commission, no off-platform deals. */
function Notice({ goods }: { goods: AssetGoods }) {
  const { t } = useTranslation();
  const info = useRemote('common-info', getCommonInfo);
  const rate = info.data ? `${(info.data.commissionPermille / 10).toFixed(info.data.commissionPermille % 10 ? 1 : 0)}%` : '';
  return (
    <Panel title={t('market.notice.title')} testId="market-notice">
      <ul className="list-disc space-y-1.5 pl-5 text-xs leading-6 text-ink-soft">
        <li>{t('market.notice.gate', { age: MINIMUM_AGE })}</li>
        <li>{t('market.notice.virtual')}</li>
        <li data-testid="notice-commission">{rate ? t('market.notice.commission', { rate }) : t('market.notice.commissionUnknown')}</li>
        {goods.holdingDays > 0 && <li>{t('market.notice.holding', { count: goods.holdingDays })}</li>}
        <li>{t('market.notice.prohibited')}</li>
      </ul>
    </Panel>
  );
}
