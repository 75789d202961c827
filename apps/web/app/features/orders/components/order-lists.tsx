/**
 * Personal-center pieces of the orders domain: buy records and sale records
 * (pageListNftOrder as buyer / seller), sale receipts (pageListNftDealRecordByParams: completed
 * deals with the chain transaction) and the time card (an unpaid order with its countdown).
 */
import { formatFen } from '@cfx/protocol/money.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { LinkTabs } from '../../../components/ui/link-tabs.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { Price } from '../../../components/ui/price.tsx';
import { EmptyBlock, LoadingBlock } from '../../../components/ui/spinner.tsx';
import { Thumb } from '../../../components/ui/thumb.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { listDeals } from '../api/list-deals.ts';
import { pageOrders } from '../api/page-orders.ts';
import type { OrderCard, OrderFilter } from '../../../lib/orders/types.ts';
import { isAwaitingPayment, goodsPath } from '../../../lib/orders/status.ts';
import { DeadlineCountdown } from '../../../components/countdown/countdown.tsx';
import { OrderStatusBadge } from './order-status-badge.tsx';

const PAGE_SIZE = 10;
const FILTERS: OrderFilter[] = ['all', 'pending', 'active', 'done', 'closed'];

function usePageParam(): number {
  const [params] = useSearchParams();
  const n = Number(params.get('page'));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

function ErrorRow({ onRetry, testId }: { onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="py-10 text-center text-sm text-ink-faint" data-testid={testId}>
      {t('orders.loadFailed')}{' '}
      <button type="button" className="text-brand hover:underline" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** Buy records (role buyer) or sale records (role seller), filtered by state (?status=), paged (?page=). */
export function OrderList({ role }: { role: 'buyer' | 'seller' }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const [params] = useSearchParams();
  const raw = params.get('status') ?? 'all';
  const status = (FILTERS as string[]).includes(raw) ? (raw as OrderFilter) : 'all';
  const page = usePageParam();
  const q = useQuery({
    queryKey: ['orders', role, status, page, token],
    queryFn: () => pageOrders({ role, status, pageNum: page, pageSize: PAGE_SIZE }),
    enabled: token !== '',
    placeholderData: keepPreviousData,
  });
  const testId = role === 'buyer' ? 'buy-records' : 'sale-records';
  return (
    <div data-testid={testId} data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.list.length ? 'ready' : 'empty'}>
      <LinkTabs
        testId={`${testId}-filter`}
        param="status"
        defaultValue="all"
        value={status}
        label={t('orders.filterLabel')}
        tabs={FILTERS.map((f) => ({ value: f, label: t(`orders.filters.${f}`) }))}
      />
      <div className="mt-4">
        {q.isPending ? (
          <LoadingBlock label={t('common.loading')} />
        ) : q.isError ? (
          <ErrorRow onRetry={() => void q.refetch()} testId={`${testId}-error`} />
        ) : q.data.list.length === 0 ? (
          <EmptyBlock label={t(role === 'buyer' ? 'orders.emptyBuy' : 'orders.emptySell')} />
        ) : (
          <ul className="space-y-3">
            {q.data.list.map((o) => (
              <OrderRow key={o.orderNo} order={o} deadline={q.dataUpdatedAt + o.remainingMs} />
            ))}
          </ul>
        )}
        {q.data && <Pager page={page} total={q.data.total} pageSize={PAGE_SIZE} />}
      </div>
    </div>
  );
}

function OrderRow({ order: o, deadline }: { order: OrderCard; deadline: number }) {
  const { t } = useTranslation();
  const awaiting = isAwaitingPayment(o.status) && o.remainingMs > 0;
  return (
    <li className="rounded-card border border-line p-4" data-testid="order-row" data-order-no={o.orderNo} data-status={o.status} data-goods-id={o.goods.id}>
      <div className="flex gap-3">
        <Thumb src={o.goods.image} alt="" width={64} height={64} className="size-16 shrink-0 rounded-control bg-night-soft object-cover" />
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-2">
            <Link to={goodsPath(o)} className="truncate text-sm font-medium text-ink hover:text-brand">
              {o.goods.name}
              {o.drop && <span className="tabular ml-1 text-xs text-ink-faint">×{o.drop.quantity}</span>}
            </Link>
            <OrderStatusBadge status={o.status} />
          </div>
          <p className="mt-0.5 truncate font-mono text-[11px] text-ink-faint">{o.orderNo}</p>
          <div className="mt-1.5 flex flex-wrap items-end justify-between gap-2">
            <span className="tabular text-xs text-ink-faint">{formatCnDateTime(o.createdAt)}</span>
            <span className="text-sm">
              {o.role === 'seller' && o.sellerIncomeFen !== null ? (
                <>
                  <span className="mr-1 text-xs text-ink-faint">{t('orders.income')}</span>
                  <Price fen={o.sellerIncomeFen} className="font-semibold text-ink" />
                  <span className="ml-2 text-xs text-ink-faint">
                    {t('orders.price')} <Price fen={o.priceFen} />
                  </span>
                </>
              ) : (
                <Price fen={o.priceFen} className="font-semibold text-ink" />
              )}
            </span>
          </div>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-2 border-t border-line pt-3">
        {awaiting && o.role === 'buyer' && <TimeCard deadline={deadline} orderNo={o.orderNo} />}
        <Link to={`?orderNo=${encodeURIComponent(o.orderNo)}`} className="btn-ghost h-8 px-3 text-xs" data-testid="order-row-detail">
          {t('orders.viewDetail')}
        </Link>
      </div>
    </li>
  );
}

/** The time card: pay within the window (countdown) and a pay link. */
export function TimeCard({ deadline, orderNo }: { deadline: number; orderNo: string }) {
  const { t } = useTranslation();
  return (
    <span className="mr-auto flex flex-wrap items-center gap-3" data-testid="time-card">
      <span className="text-xs text-warning">
        {t('orders.payWithin')} <DeadlineCountdown deadline={deadline} className="text-warning" />
      </span>
      <Link to={`/pay?orderNo=${encodeURIComponent(orderNo)}`} className="btn-primary h-8 px-3 text-xs" data-testid="time-card-pay">
        {t('orders.goPay')}
      </Link>
    </span>
  );
}

/** Sale receipts: my completed deals (bought and sold) with the settlement transaction, and my completed primary purchases (drops) with the mint transaction. */
export function DealList() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const accountId = useUserStore((s) => s.accountId);
  const page = usePageParam();
  const q = useQuery({
    queryKey: ['deals', page, token],
    queryFn: () => listDeals({ mine: 'all', pageNum: page, pageSize: PAGE_SIZE }),
    enabled: token !== '',
    placeholderData: keepPreviousData,
  });
  return (
    <div data-testid="sale-receipts" data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.list.length ? 'ready' : 'empty'}>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <ErrorRow onRetry={() => void q.refetch()} testId="sale-receipts-error" />
      ) : q.data.list.length === 0 ? (
        <EmptyBlock label={t('orders.emptyDeals')} />
      ) : (
        <ul className="divide-y divide-line">
          {q.data.list.map((d) => {
            const royalty = d.kind === 'royalty';
            const sold = royalty || d.seller.accountId === accountId;
            return (
              <li key={`${d.kind}:${d.id}`} className="flex items-center gap-3 py-3" data-testid="receipt-row" data-order-no={d.orderNo} data-side={royalty ? 'royalty' : sold ? 'sell' : 'buy'} data-kind={d.kind}>
                <Thumb src={d.image} alt="" width={48} height={48} className="size-12 shrink-0 rounded-control bg-night-soft object-cover" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm text-ink">
                    <span className={`mr-2 rounded px-1.5 py-0.5 text-[11px] ${sold ? 'bg-success/10 text-success' : 'bg-brand-soft text-brand'}`}>{t(royalty ? 'orders.royaltyIncome' : sold ? 'orders.sold' : 'orders.bought')}</span>
                    {d.kind === 'drop' && <span className="mr-2 rounded bg-night-soft px-1.5 py-0.5 text-[11px] text-ink-soft">{t('orders.primarySale')}</span>}
                    <Link to={`/assets/${d.goodsId}`} className="hover:text-brand">
                      {d.goodsName}
                    </Link>
                    {d.quantity > 1 && <span className="tabular ml-1 text-xs text-ink-faint">{t('orders.quantity', { n: d.quantity })}</span>}
                  </p>
                  <p className="truncate text-xs text-ink-faint">
                    {royalty ? t('orders.royaltyOfSale', { price: formatFen(d.priceFen) }) : t('orders.counterparty', { name: sold ? d.buyer.nickname : d.seller.nickname })} · <span className="tabular">{formatCnDateTime(d.at)}</span>
                  </p>
                  {d.txHash && (
                    <p className="truncate font-mono text-[11px]">
                      {d.explorerUrl ? (
                        <a href={d.explorerUrl} target="_blank" rel="noopener noreferrer" className="text-brand hover:underline" data-testid="receipt-tx">
                          {d.txHash}
                        </a>
                      ) : (
                        d.txHash
                      )}
                    </p>
                  )}
                </div>
                <Price fen={royalty ? d.royaltyFen : d.priceFen} className="font-semibold text-ink" />
              </li>
            );
          })}
        </ul>
      )}
      {q.data && <Pager page={page} total={q.data.total} pageSize={PAGE_SIZE} />}
    </div>
  );
}
