import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import type { Route } from './+types/assets.detail';
import { Breadcrumb } from '../components/ui/breadcrumb.tsx';
import { formatCnDateTime } from '../components/ui/cn-time.ts';
import { FactList } from '../components/ui/fact-list.tsx';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Price } from '../components/ui/price.tsx';
import { MediaView } from '../components/ui/media-view.tsx';
import { Thumb } from '../components/ui/thumb.tsx';
import { optional, pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { getGoods } from '../features/catalog/api/get-goods.ts';
import { listHistoryActions } from '../features/catalog/api/list-history-actions.ts';
import { listPriceHistory } from '../features/catalog/api/list-price-history.ts';
import { HISTORY_PAGE_SIZE, HistoryActions } from '../features/catalog/components/history-actions.tsx';
import { PriceChart } from '../features/catalog/components/price-chart.tsx';
import { ChainRecord } from '../features/chain/chain-record.tsx';
import { AssetActions } from '../features/market/asset-actions.tsx';
import { ShareButton } from '../features/share/components/share-button.tsx';

/**
 * Collectible detail (/assets/:id): artwork, info, owner, attributes, price (asking or last),
 * price-history chart (lazy, client only), history actions and the chain record (features/chain).
 * An unknown id is a real 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const call = serverApi(request);
  const [goods, prices, history] = await Promise.all([
    getGoods(call, params.id),
    listPriceHistory(call, params.id),
    listHistoryActions(call, { id: params.id, pageNum: 1, pageSize: HISTORY_PAGE_SIZE }),
  ]);
  return { origin: pageOrigin(request), goods: required(goods), prices: optional(prices) ?? [], history: optional(history) };
}

export default function AssetDetail({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const g = d.goods;
  const onSale = g.status === 'on_sale' && g.salePriceFen !== null;
  const price = onSale ? g.salePriceFen : g.lastPriceFen;
  const serial = `#${String(g.serial).padStart(4, '0')}`;
  const description = t('catalog.assetDescription', {
    name: g.name,
    project: g.projectName,
    creator: g.creator.name,
    serial: `${serial}/${g.supply}`,
    price: formatFen(price),
  });
  return (
    <div className="page-width py-8" data-testid="asset-detail" data-id={g.id}>
      <PageMeta title={g.name} description={description} image={g.image} origin={d.origin} />
      <Breadcrumb items={[{ label: g.projectName, to: `/projects/detail/${g.projectId}` }, { label: g.name }]} />

      <div className="grid gap-8 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="card self-start overflow-hidden">
          <MediaView kind={g.media?.kind} src={g.media?.url} poster={g.image} alt={g.name} width={600} height={600} eager className="aspect-square w-full bg-night-soft object-cover" />
        </div>
        <div className="flex min-w-0 flex-col">
          <Link to={`/projects/detail/${g.projectId}`} className="w-max text-sm text-brand hover:underline" data-testid="asset-project">
            {g.projectName}
          </Link>
          <h1 className="mt-2 text-3xl text-ink" data-testid="asset-name">
            {g.name}
          </h1>
          <p className="tabular mt-1 text-sm text-ink-faint">
            {serial} / {g.supply}
          </p>
          <ShareButton target={{ type: 'goods', id: g.id, name: g.name }} className="mt-3 h-9 w-max" />

          <div className="mt-5 grid grid-cols-2 gap-3">
            <Person
              label={t('catalog.creator')}
              name={g.creator.name}
              avatar={g.creator.avatar}
              to={`/creator/${encodeURIComponent(g.creator.accountId)}`}
              testId="asset-creator"
            />
            <Person label={t('catalog.owner')} name={g.owner.nickname} avatar={g.owner.avatar} testId="asset-owner" />
          </div>

          <div className="card mt-5 p-5" data-testid="asset-price-box" data-on-sale={onSale ? 'true' : 'false'}>
            <p className="text-xs text-ink-faint">{onSale ? t('catalog.askingPrice') : t('catalog.lastPrice')}</p>
            {price !== null ? (
              <Price fen={price} className="mt-1 block text-3xl font-bold text-brand" testId="asset-price" />
            ) : (
              <p className="mt-1 text-ink-faint">—</p>
            )}
            {onSale ? (
              <Link to={`/object-buy?goodsId=${g.id}`} className="btn-primary mt-4 h-11 w-full text-base" data-testid="asset-buy">
                {t('catalog.buyNow')}
              </Link>
            ) : (
              <p className="mt-3 text-sm text-ink-faint">{t('catalog.notForSale')}</p>
            )}
          </div>

          <FactList
            className="mt-4"
            rows={[
              [t('catalog.issuePrice'), <Price fen={g.project.priceFen} />],
              [t('catalog.tokenId'), g.tokenId ? <span className="font-mono text-xs">{g.tokenId}</span> : ''],
              [t('catalog.contract'), g.contract ? <span className="font-mono text-xs">{g.contract}</span> : ''],
              [t('catalog.chainStatus'), g.chainStatus === 'minted' ? t('catalog.minted') : t('catalog.mintPending')],
              [t('catalog.mintedAt'), g.mintedAt ? <span className="tabular">{formatCnDateTime(g.mintedAt)}</span> : ''],
              [t('catalog.holding'), g.holdingDays > 0 ? t('catalog.holdingDays', { count: g.holdingDays }) : t('catalog.none')],
              [t('catalog.transferableAt'), g.holdingDays > 0 ? <span className="tabular">{formatCnDateTime(g.transferableAt)}</span> : ''],
              [t('catalog.acquiredAt'), <span className="tabular">{formatCnDateTime(g.acquiredAt)}</span>],
            ]}
          />
        </div>
      </div>

      <AssetActions goods={g} />

      <div className="mt-10 grid gap-6 lg:grid-cols-2">
        <Panel title={t('catalog.attributes')} testId="asset-attributes">
          {g.attributes.length === 0 ? (
            <p className="py-6 text-center text-ink-faint">{t('common.empty')}</p>
          ) : (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {g.attributes.map((a) => (
                <li key={`${a.trait}:${a.value}`} className="rounded-control border border-line bg-canvas px-3 py-2 text-center">
                  <p className="text-xs text-ink-faint">{a.trait}</p>
                  <p className="mt-0.5 truncate text-sm font-medium text-ink">{a.value}</p>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title={t('catalog.priceHistory')} testId="price-history">
          <PriceChart points={d.prices} />
        </Panel>
      </div>

      <div className="mt-6">
        <Panel title={t('catalog.history')} testId="asset-history">
          <HistoryActions key={g.id} goodsId={g.id} first={d.history} />
        </Panel>
      </div>

      {/* Chain record (features/chain): the token's on-chain events, loaded in the browser. */}
      <div className="mt-6" data-testid="chain-record-slot">
        {g.tokenId && /^\d{1,78}$/.test(g.tokenId) ? (
          <ChainRecord tokenId={g.tokenId} />
        ) : (
          <Panel title={t('chain.record')} testId="chain-record-pending">
            <p className="py-6 text-center text-ink-faint">{t('catalog.mintPending')}</p>
          </Panel>
        )}
      </div>
    </div>
  );
}

function Person({ label, name, avatar, to, testId }: { label: string; name: string; avatar: string; to?: string; testId: string }) {
  const body = (
    <>
      <Thumb src={avatar} alt="" width={40} height={40} className="size-10 shrink-0 rounded-full bg-canvas" />
      <span className="min-w-0">
        <span className="block text-xs text-ink-faint">{label}</span>
        <span className="block truncate text-sm text-ink">{name}</span>
      </span>
    </>
  );
  const cls = 'flex items-center gap-3 rounded-card border border-line bg-surface p-3';
  return to ? (
    <Link to={to} className={`${cls} hover:border-brand`} data-testid={testId} prefetch="intent">
      {body}
    </Link>
  ) : (
    <div className={cls} data-testid={testId}>
      {body}
    </div>
  );
}

function Panel({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className="card p-5" data-testid={testId} aria-label={title}>
      <h2 className="mb-4 text-base text-ink">{title}</h2>
      {children}
    </section>
  );
}
