/**
 * Personal-center pieces of "my assets": my collection (list/head), digital assets
 * (list/home, filter held / on sale) and favourites (list/favorite; un-favourite with goods/v1/love).
 */
import { useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { LinkTabs } from '../../../components/ui/link-tabs.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { Price } from '../../../components/ui/price.tsx';
import { EmptyBlock, LoadingBlock } from '../../../components/ui/spinner.tsx';
import { Thumb } from '../../../components/ui/thumb.tsx';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { getCollectionHead } from '../api/get-collection-head.ts';
import { listFavorites } from '../api/list-favorites.ts';
import { listMyAssets } from '../api/list-my-assets.ts';
import { toggleLove } from '../../../lib/market-api/toggle-love.ts';
import type { AssetFilter, GoodsCard } from '../api/types.ts';

const PAGE_SIZE = 12;
const FILTERS: AssetFilter[] = ['all', 'held', 'on_sale'];

export function usePage(): number {
  const [params] = useSearchParams();
  const n = Number(params.get('page'));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function LoadError({ onRetry, testId }: { onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="py-10 text-center text-sm text-ink-faint" data-testid={testId}>
      {t('personal.loadFailed')}{' '}
      <button type="button" className="text-brand hover:underline" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** My collection in numbers. */
export function CollectionSummary() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['collection-head', token], queryFn: getCollectionHead, enabled: token !== '' });
  const cells: Array<[string, string, string]> = q.data
    ? [
        [t('personal.head.total'), String(q.data.total), 'head-total'],
        [t('personal.head.held'), String(q.data.held), 'head-held'],
        [t('personal.head.onSale'), String(q.data.onSale), 'head-on-sale'],
        [t('personal.head.series'), String(q.data.series), 'head-series'],
        [t('personal.head.valuation'), formatFen(q.data.valuationFen), 'head-valuation'],
      ]
    : [];
  return (
    <section className="card p-5" data-testid="my-collection" data-status={q.isPending ? 'loading' : q.isError ? 'error' : 'ready'}>
      <h2 className="mb-3 text-base text-ink">{t('personal.myCollection')}</h2>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} testId="my-collection-error" />
      ) : (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {cells.map(([label, value, id]) => (
            <div key={id} className="rounded-control bg-canvas px-3 py-2.5">
              <dt className="text-xs text-ink-faint">{label}</dt>
              <dd className="tabular mt-0.5 text-lg font-semibold text-ink" data-testid={id}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/** A collectible tile of the personal center (links to the asset page, where it can be listed or taken off shelf). */
export function GoodsTile({ goods: g, children }: { goods: GoodsCard; children?: ReactNode }) {
  const { t } = useTranslation();
  const onSale = g.status === 'on_sale';
  return (
    <li className="card overflow-hidden" data-testid="asset-tile" data-id={g.id} data-status={g.status} data-chain-status={g.chainStatus}>
      <Link to={`/assets/${g.id}`} className="group block">
        <div className="relative aspect-square overflow-hidden bg-night-soft">
          <Thumb src={g.image} alt={g.name} width={220} height={220} className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]" />
          <span className={`absolute left-2 top-2 rounded-full px-2 py-0.5 text-[11px] font-medium ${onSale ? 'bg-brand text-white' : 'bg-black/55 text-white'}`}>
            {onSale ? t('personal.onSale') : g.chainStatus === 'minted' ? t('personal.held') : t('personal.minting')}
          </span>
        </div>
        <div className="p-3">
          <p className="truncate text-sm text-ink group-hover:text-brand">{g.name}</p>
          <p className="truncate text-xs text-ink-faint">{g.projectName}</p>
          <p className="mt-1 text-xs">
            {onSale ? <Price fen={g.salePriceFen} className="font-semibold text-brand" /> : <Price fen={g.lastPriceFen} className="text-ink-soft" />}
          </p>
        </div>
      </Link>
      {children && <div className="border-t border-line px-3 py-2">{children}</div>}
    </li>
  );
}

/**
 * Digital assets: my collectibles, filtered (?status=) and paged (?page=). `tileActions` renders a
 * tile's extra actions (the route gives it open box / move / gift from features/shift).
 */
export function DigitalAssets({ tileActions }: { tileActions?: (g: GoodsCard) => ReactNode } = {}) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const [params] = useSearchParams();
  const raw = params.get('status') ?? 'all';
  const status = (FILTERS as string[]).includes(raw) ? (raw as AssetFilter) : 'all';
  const page = usePage();
  const q = useQuery({
    queryKey: ['my-assets', status, page, token],
    queryFn: () => listMyAssets({ status, pageNum: page, pageSize: PAGE_SIZE }),
    enabled: token !== '',
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  return (
    <div data-testid="digital-assets" data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.list.length ? 'ready' : 'empty'}>
      <LinkTabs testId="assets-filter" param="status" defaultValue="all" value={status} label={t('personal.filterLabel')} tabs={FILTERS.map((f) => ({ value: f, label: t(`personal.assetFilters.${f}`) }))} />
      <div className="mt-4">
        {q.isPending ? (
          <LoadingBlock label={t('common.loading')} />
        ) : q.isError ? (
          <LoadError onRetry={() => void q.refetch()} testId="digital-assets-error" />
        ) : q.data.list.length === 0 ? (
          <div className="py-10 text-center">
            <EmptyBlock label={t('personal.noAssets')} />
            <Link to="/sales" className="btn-ghost">
              {t('personal.toMarket')}
            </Link>
          </div>
        ) : (
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
            {q.data.list.map((g) => (
              <GoodsTile key={g.id} goods={g}>
                {tileActions?.(g)}
              </GoodsTile>
            ))}
          </ul>
        )}
        {q.data && <Pager page={page} total={q.data.total} pageSize={PAGE_SIZE} />}
      </div>
    </div>
  );
}

/** Favourites, with un-favourite. */
export function Favourites() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const client = useQueryClient();
  const page = usePage();
  const [busy, setBusy] = useState<number | null>(null);
  const q = useQuery({
    queryKey: ['favorites', page, token],
    queryFn: () => listFavorites({ pageNum: page, pageSize: PAGE_SIZE }),
    enabled: token !== '',
    placeholderData: keepPreviousData,
  });
  const remove = async (id: number) => {
    setBusy(id);
    const r = await toggleLove(id);
    setBusy(null);
    if (r.ok && r.data) {
      toast.success(r.data.loved ? t('market.loved') : t('market.unloved'));
      void client.invalidateQueries({ queryKey: ['favorites'] });
    }
  };
  return (
    <div data-testid="favourites" data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.list.length ? 'ready' : 'empty'}>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} testId="favourites-error" />
      ) : q.data.list.length === 0 ? (
        <EmptyBlock label={t('personal.noFavourites')} />
      ) : (
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          {q.data.list.map((g) => (
            <GoodsTile key={g.id} goods={g}>
              <button type="button" className="w-full text-center text-xs text-ink-soft hover:text-danger" disabled={busy === g.id} onClick={() => void remove(g.id)} data-testid="favourite-remove">
                {t('personal.unfavourite')}
              </button>
            </GoodsTile>
          ))}
        </ul>
      )}
      {q.data && <Pager page={page} total={q.data.total} pageSize={PAGE_SIZE} />}
    </div>
  );
}
