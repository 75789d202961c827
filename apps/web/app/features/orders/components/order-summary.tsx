import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { FactList } from '../../../components/ui/fact-list.tsx';
import { Price } from '../../../components/ui/price.tsx';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { OrderDetail } from '../../../lib/orders/types.ts';
import { OrderStatusBadge } from './order-status-badge.tsx';
import { goodsPath } from '../../../lib/orders/status.ts';

type SummaryOrder = Omit<OrderDetail, 'timeline'>;

/** The goods of an order and its money: price; for the seller the commission, royalty and net proceeds. */
export function OrderSummary({ order: o, compact = false }: { order: SummaryOrder; compact?: boolean }) {
  const { t } = useTranslation();
  const serial = `#${String(o.goods.serial).padStart(4, '0')}`;
  const link = goodsPath(o);
  return (
    <div data-testid="order-summary" data-order-no={o.orderNo} data-status={o.status} data-role={o.role}>
      <div className="flex gap-4">
        <Link to={link} className="shrink-0">
          <Thumb src={o.goods.image} alt={o.goods.name} width={compact ? 72 : 96} height={compact ? 72 : 96} className={`${compact ? 'size-18' : 'size-24'} rounded-control bg-night-soft object-cover`} />
        </Link>
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-2">
            <Link to={link} className="truncate text-base font-medium text-ink hover:text-brand" data-testid="order-goods-name">
              {o.goods.name}
            </Link>
            <OrderStatusBadge status={o.status} />
          </div>
          {o.drop ? (
            <p className="tabular mt-0.5 truncate text-xs text-ink-faint" data-testid="order-quantity" data-quantity={o.drop.quantity}>
              {t('drops.quantityLine', { quantity: o.drop.quantity, price: formatFen(o.drop.unitPriceFen) })}
            </p>
          ) : (
            <p className="mt-0.5 truncate text-xs text-ink-faint">
              {o.goods.projectName} · <span className="tabular">{serial}</span>
            </p>
          )}
          <Price fen={o.priceFen} className="mt-2 block text-xl font-bold text-brand" testId="order-price" />
        </div>
      </div>
      {o.drop && !compact && (
        <div className="mt-4" data-testid="order-items">
          <p className="mb-2 text-sm text-ink-soft">{t('drops.items')}</p>
          {o.drop.items.length === 0 ? (
            <p className="text-xs text-ink-faint">{t('drops.itemsPending')}</p>
          ) : (
            <ul className="flex flex-wrap gap-2">
              {o.drop.items.map((i) => (
                <li key={i.goodsId}>
                  <Link to={`/assets/${i.goodsId}`} className="tabular inline-flex items-center gap-1.5 rounded-control border border-line px-2.5 py-1 text-xs text-ink hover:border-brand" data-testid="order-item" data-chain-status={i.chainStatus}>
                    #{String(i.serial).padStart(4, '0')}
                    <span className={i.chainStatus === 'minted' ? 'text-success' : i.chainStatus === 'void' ? 'text-ink-faint' : 'text-warning'}>
                      {t(i.chainStatus === 'minted' ? 'drops.minted' : i.chainStatus === 'void' ? 'drops.unitRefunded' : 'drops.minting')}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {!compact && (
        <FactList
          className="mt-4"
          rows={[
            [t('orders.orderNo'), <span className="font-mono text-xs" data-testid="order-no">{o.orderNo}</span>],
            [t('orders.kind'), t(`orders.kinds.${o.kind}`)],
            [t('orders.seller'), o.seller.nickname],
            [t('orders.buyer'), o.buyer.nickname],
            [t('orders.createdAt'), <span className="tabular">{formatCnDateTime(o.createdAt)}</span>],
            [t('orders.paidAt'), o.paidAt ? <span className="tabular">{formatCnDateTime(o.paidAt)}</span> : ''],
            [t('orders.payMethod'), o.payMethod ? t(`payment.methods.${o.payMethod}.name`) : ''],
            [t('orders.completedAt'), o.completedAt ? <span className="tabular">{formatCnDateTime(o.completedAt)}</span> : ''],
            ...(o.role === 'seller'
              ? ([
                  [t('orders.commission'), `-${formatFen(o.commissionFen)}`],
                  [t('orders.royalty'), o.royaltyFen ? `-${formatFen(o.royaltyFen)}` : ''],
                  [t('orders.income'), <Price fen={o.sellerIncomeFen} className="font-semibold text-ink" testId="order-income" />],
                ] as Array<[string, ReactNode]>)
              : []),
            [
              t('orders.tx'),
              o.txHash ? (
                o.explorerUrl ? (
                  <a href={o.explorerUrl} target="_blank" rel="noopener noreferrer" className="font-mono text-xs text-brand hover:underline" data-testid="order-tx">
                    {o.txHash}
                  </a>
                ) : (
                  <span className="font-mono text-xs" data-testid="order-tx">
                    {o.txHash}
                  </span>
                )
              ) : (
                ''
              ),
            ],
            [t('orders.failReason'), o.failReason ?? ''],
          ]}
        />
      )}
    </div>
  );
}
