import { useLocation } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/sales';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Pager } from '../components/ui/pager.tsx';
import { PendingRegion } from '../components/ui/pending.tsx';
import { EmptyBlock } from '../components/ui/spinner.tsx';
import { optional, pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { getFilterMeta } from '../features/market/api/get-filter-meta.ts';
import { listMarketGoods } from '../features/market/api/list-market-goods.ts';
import { MarketCard } from '../features/market/components/market-card.tsx';
import { MarketFilters } from '../features/market/components/market-filters.tsx';
import { MARKET_PAGE_SIZE, parseMarketParams } from '../features/market/market-query.ts';

/**
 * Consignment market (/sales): collectibles on sale, filtered by release (?project=), asking price
 * in yuan (?min=&max=, sent in fen), sorted by listing time or price (?sort=), paged (?page=).
 * Server-rendered; cards link to /assets/{id}.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const params = parseMarketParams(url.searchParams);
  const call = serverApi(request);
  const [list, meta] = await Promise.all([
    listMarketGoods(call, {
      pageNum: params.page,
      pageSize: MARKET_PAGE_SIZE,
      sort: params.sort,
      ...(params.projectId !== undefined ? { projectId: params.projectId } : {}),
      ...(params.minFen !== undefined ? { minPriceFen: params.minFen } : {}),
      ...(params.maxFen !== undefined ? { maxPriceFen: params.maxFen } : {}),
    }),
    getFilterMeta(call),
  ]);
  return { origin: pageOrigin(request), params, list: required(list), meta: optional(meta) };
}

export default function Sales({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const filtered = d.params.projectId !== undefined || d.params.minFen !== undefined || d.params.maxFen !== undefined;
  return (
    <div className="page-width py-8" data-testid="sales-page">
      <PageMeta title={t('pages.sales.title')} description={t('pages.sales.description')} origin={d.origin} image={d.list.list[0]?.image} />
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl text-ink">{t('market.title')}</h1>
          <p className="mt-1 text-ink-faint">{t('market.subtitle')}</p>
        </div>
        <p className="tabular text-sm text-ink-faint" data-testid="market-total">
          {t('market.total', { count: d.list.total })}
        </p>
      </div>
      <MarketFilters key={search} meta={d.meta} params={d.params} />
      <PendingRegion id="market-list" className="mt-6">
        {d.list.list.length === 0 ? (
          <EmptyBlock label={filtered ? t('market.emptyFiltered') : t('market.empty')} />
        ) : (
          <div className="grid grid-cols-2 gap-4 md:grid-cols-4 lg:grid-cols-5" data-testid="market-grid">
            {d.list.list.map((g, i) => (
              <MarketCard key={g.id} goods={g} eager={i < 5} level={2} />
            ))}
          </div>
        )}
        <Pager page={d.params.page} total={d.list.total} pageSize={MARKET_PAGE_SIZE} anchor="market-list" />
      </PendingRegion>
    </div>
  );
}
