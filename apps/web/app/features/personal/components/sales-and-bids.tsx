/**
 * Personal-center pieces of selling and bidding: my sale (mySell: on sale, sold with the
 * proceeds, closed), my bids (myBarginList sent: cancel, pay an accepted one) and counter bids
 * (myBarginList received: the owner agrees — the action is passed in by the route, since agreeing
 * is the market's wallet flow).
 */
import { useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { Price } from '../../../components/ui/price.tsx';
import { EmptyBlock, LoadingBlock } from '../../../components/ui/spinner.tsx';
import { Thumb } from '../../../components/ui/thumb.tsx';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { getBidStatistics } from '../../../lib/market-api/bid-statistics.ts';
import { cancelBid } from '../../../lib/market-api/cancel-bid.ts';
import { myBids } from '../api/my-bids.ts';
import { mySell } from '../api/my-sell.ts';
import type { MyBid, MySellItem, SaleFilter } from '../api/types.ts';
import { LoadError, usePage } from './assets.tsx';

const PAGE_SIZE = 10;
const CLOSE_REASONS = ['seller', 'bid_accepted', 'token_moved', 'approval_revoked', 'expired'] as const;

function Row({ image, name, goodsId, children, testId, attrs }: { image: string; name: string; goodsId: number; children: ReactNode; testId: string; attrs: Record<string, string> }) {
  return (
    <li className="flex gap-3 rounded-card border border-line p-4" data-testid={testId} {...attrs}>
      <Link to={`/assets/${goodsId}`} className="shrink-0">
        <Thumb src={image} alt="" width={64} height={64} className="size-16 rounded-control bg-night-soft object-cover" />
      </Link>
      <div className="min-w-0 flex-1">
        <Link to={`/assets/${goodsId}`} className="block truncate text-sm font-medium text-ink hover:text-brand">
          {name}
        </Link>
        {children}
      </div>
    </li>
  );
}

/** My listings of one state. `renderActions` adds the route's actions to a live listing (e.g. off shelf). */
export function MySales({ status, renderActions }: { status: SaleFilter; renderActions?: (item: MySellItem, refresh: () => void) => ReactNode }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const client = useQueryClient();
  const page = usePage();
  const q = useQuery({
    queryKey: ['my-sell', status, page, token],
    queryFn: () => mySell({ status, pageNum: page, pageSize: PAGE_SIZE }),
    enabled: token !== '',
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['my-sell'] });
    void client.invalidateQueries({ queryKey: ['my-assets'] });
  };
  return (
    <div data-testid="my-sales" data-filter={status} data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.list.length ? 'ready' : 'empty'}>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} testId="my-sales-error" />
      ) : q.data.list.length === 0 ? (
        <EmptyBlock label={t(`personal.noSales.${status}`)} />
      ) : (
        <ul className="space-y-3">
          {q.data.list.map((l) => (
            <Row key={l.listingId} image={l.goods?.image ?? ''} name={l.goods?.name ?? `#${l.goodsId}`} goodsId={l.goodsId} testId="sale-row" attrs={{ 'data-goods-id': String(l.goodsId), 'data-status': l.status }}>
              <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-faint">
                <span className={`rounded px-1.5 py-0.5 ${l.status === 'sold' ? 'bg-success/10 text-success' : l.status === 'on_sale' ? 'bg-brand-soft text-brand' : l.status === 'reserved' ? 'bg-warning/15 text-warning' : 'bg-canvas text-ink-soft'}`}>
                  {t(`personal.saleStatus.${l.status}`)}
                </span>
                {l.listedAt && <span className="tabular">{t('personal.listedAt', { time: formatCnDateTime(l.listedAt) })}</span>}
                {l.soldAt && <span className="tabular">{t('personal.soldAt', { time: formatCnDateTime(l.soldAt) })}</span>}
                {!l.soldAt && l.closedAt && <span className="tabular">{t('personal.closedAt', { time: formatCnDateTime(l.closedAt) })}</span>}
                {l.closeReason && (CLOSE_REASONS as readonly string[]).includes(l.closeReason) && (
                  <span>{t(`personal.closeReasons.${l.closeReason as (typeof CLOSE_REASONS)[number]}`)}</span>
                )}
              </div>
              <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm">
                  <span className="mr-1 text-xs text-ink-faint">{t('personal.price')}</span>
                  <Price fen={l.priceFen} className="font-semibold text-ink" testId="sale-price" />
                  {l.incomeFen !== null && (
                    <span className="ml-3 text-xs text-ink-faint">
                      {t('personal.income')} <Price fen={l.incomeFen} className="font-semibold text-success" testId="sale-income" />
                    </span>
                  )}
                </span>
                <span className="flex gap-2">
                  {l.orderNo && (
                    <Link to={`/personal-center/txn-details?orderNo=${encodeURIComponent(l.orderNo)}`} className="btn-ghost h-8 px-3 text-xs">
                      {t('personal.viewOrder')}
                    </Link>
                  )}
                  {l.status === 'on_sale' && renderActions?.(l, refresh)}
                </span>
              </div>
            </Row>
          ))}
        </ul>
      )}
      {q.data && <Pager page={page} total={q.data.total} pageSize={PAGE_SIZE} />}
    </div>
  );
}

/** My bids (sent) or counter bids (received). `renderActions` adds the route's actions to an active received bid (agree). */
export function BidList({ type, renderActions }: { type: 'sent' | 'received'; renderActions?: (bid: MyBid, refresh: () => void) => ReactNode }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const client = useQueryClient();
  const page = usePage();
  const [busy, setBusy] = useState<number | null>(null);
  const q = useQuery({
    queryKey: ['my-bids', type, page, token],
    queryFn: () => myBids({ type, status: 'all', pageNum: page, pageSize: PAGE_SIZE }),
    enabled: token !== '',
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const stats = useQuery({ queryKey: ['bid-stats', token], queryFn: getBidStatistics, enabled: token !== '', staleTime: 0 });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['my-bids'] });
    void client.invalidateQueries({ queryKey: ['bid-stats'] });
  };
  const onCancel = async (id: number) => {
    setBusy(id);
    const r = await cancelBid(id);
    setBusy(null);
    if (r.ok) {
      toast.success(r.message || t('market.bids.cancelled'));
      refresh();
    }
  };
  const testId = type === 'sent' ? 'my-bids' : 'counter-bids';
  return (
    <div data-testid={testId} data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.list.length ? 'ready' : 'empty'}>
      {stats.data && (
        <p className="mb-3 rounded-control bg-canvas px-3 py-2 text-xs text-ink-soft" data-testid={`${testId}-stats`}>
          {type === 'sent'
            ? t('market.bids.statsBidder', { count: stats.data.sentActive, accepted: stats.data.sentAccepted })
            : t('market.bids.statsOwner', { count: stats.data.receivedActive, goods: stats.data.receivedGoods, top: formatFen(stats.data.highestReceivedFen) || '—' })}
        </p>
      )}
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} testId={`${testId}-error`} />
      ) : q.data.list.length === 0 ? (
        <EmptyBlock label={t(type === 'sent' ? 'personal.noBids' : 'personal.noCounterBids')} />
      ) : (
        <ul className="space-y-3">
          {q.data.list.map((b) => (
            <Row key={b.id} image={b.goods?.image ?? ''} name={b.goods?.name ?? `#${b.goodsId}`} goodsId={b.goodsId} testId="bid-item" attrs={{ 'data-id': String(b.id), 'data-status': b.status, 'data-goods-id': String(b.goodsId) }}>
              <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-faint">
                <span className={`rounded px-1.5 py-0.5 ${b.status === 'active' ? 'bg-brand-soft text-brand' : b.status === 'accepted' ? 'bg-success/10 text-success' : 'bg-canvas text-ink-soft'}`}>
                  {t(`personal.bidStatus.${b.status}`)}
                </span>
                {type === 'received' && <span>{t('personal.bidder', { name: b.bidder.nickname })}</span>}
                <span className="tabular">{t('market.bids.until', { time: formatCnDateTime(b.expiresAt, false) })}</span>
              </div>
              <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                <Price fen={b.amountFen} className="text-sm font-semibold text-ink" testId="bid-item-amount" />
                <span className="flex gap-2">
                  {type === 'sent' && b.status === 'active' && (
                    <button type="button" className="btn-ghost h-8 px-3 text-xs" disabled={busy === b.id} onClick={() => void onCancel(b.id)} data-testid="bid-item-cancel">
                      {t('market.bids.cancel')}
                    </button>
                  )}
                  {b.orderNo && type === 'sent' && (
                    <Link to={`/pay?orderNo=${encodeURIComponent(b.orderNo)}`} className="btn-primary h-8 px-3 text-xs" data-testid="bid-item-pay">
                      {t('personal.payBid')}
                    </Link>
                  )}
                  {b.orderNo && type === 'received' && (
                    <Link to={`/personal-center/txn-details?orderNo=${encodeURIComponent(b.orderNo)}`} className="btn-ghost h-8 px-3 text-xs">
                      {t('personal.viewOrder')}
                    </Link>
                  )}
                  {type === 'received' && b.status === 'active' && renderActions?.(b, refresh)}
                </span>
              </div>
            </Row>
          ))}
        </ul>
      )}
      {q.data && <Pager page={page} total={q.data.total} pageSize={PAGE_SIZE} />}
    </div>
  );
}
