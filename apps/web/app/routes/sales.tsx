import { useLocation } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/sales';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Pager } from '../components/ui/pager.tsx';
import { PendingRegion } from '../components/ui/pending.tsx';
import { EmptyBlock } from '../components/ui/spinner.tsx';
import { optional, pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { findAllProjects } from '../features/market/api/find-all-projects.ts';
import { getFilterMeta } from '../features/market/api/get-filter-meta.ts';
import { getProjectTitle } from '../features/market/api/get-project-title.ts';
import { listMarketGoods } from '../features/market/api/list-market-goods.ts';
import { MarketCard } from '../features/market/components/market-card.tsx';
import { MarketFilters } from '../features/market/components/market-filters.tsx';
import { SelectedRelease } from '../features/market/components/selected-release.tsx';
import { MARKET_PAGE_SIZE, parseMarketParams } from '../features/market/market-query.ts';
import { releaseOptionGroups } from '../features/market/release-options.ts';

/**
 * Consignment market (/sales): collectibles on sale, filtered by release (?project=), asking price
 * in yuan (?min=&max=, sent in fen), sorted by listing time or price (?sort=), paged (?page=).
 * Server-rendered; cards link to /assets/{id}. The release filter lists every release by sale status
 * (findAll); with `?project=` the release's card (detailsTitle) sits above the list.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const params = parseMarketParams(url.searchParams);
  const call = serverApi(request);
  const [list, meta, releases, title] = await Promise.all([
    listMarketGoods(call, {
      pageNum: params.page,
      pageSize: MARKET_PAGE_SIZE,
      sort: params.sort,
      ...(params.projectId !== undefined ? { projectId: params.projectId } : {}),
      ...(params.minFen !== undefined ? { minPriceFen: params.minFen } : {}),
      ...(params.maxFen !== undefined ? { maxPriceFen: params.maxFen } : {}),
    }),
    getFilterMeta(call),
    findAllProjects(call),
    params.projectId !== undefined ? getProjectTitle(call, params.projectId) : null,
  ]);
  const selected = title ? optional(title) : null;
  return {
    origin: pageOrigin(request),
    params,
    list: required(list),
    meta: optional(meta),
    releases: optional(releases),
    /** The release of `?project=` (detailsTitle), null when it is not found; undefined without the filter. */
    selected: params.projectId !== undefined ? selected : undefined,
  };
}

export default function Sales({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const filtered = d.params.projectId !== undefined || d.params.minFen !== undefined || d.params.maxFen !== undefined;
  const releases = releaseOptionGroups(d.releases, d.meta?.projects ?? [], d.params.projectId !== undefined ? { id: d.params.projectId, name: d.selected?.name } : undefined);
  const clearRelease = new URLSearchParams(search);
  clearRelease.delete('project');
  clearRelease.delete('page');
  const rest = clearRelease.toString();
  const clearHref = `/sales${rest ? `?${rest}` : ''}`;
  const title = d.selected ? t('pages.sales.titleRelease', { name: d.selected.name }) : t('pages.sales.title');
  return (
    <div className="page-width py-8" data-testid="sales-page">
      <PageMeta title={title} description={t('pages.sales.description')} origin={d.origin} image={d.selected?.cover ?? d.list.list[0]?.image} />
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl text-ink">{t('market.title')}</h1>
          <p className="mt-1 text-ink-faint">{t('market.subtitle')}</p>
        </div>
        <p className="tabular text-sm text-ink-faint" data-testid="market-total">
          {t('market.total', { count: d.list.total })}
        </p>
      </div>
      <MarketFilters key={search} meta={d.meta} params={d.params} releases={releases} />
      {d.selected !== undefined && <SelectedRelease title={d.selected} clearHref={clearHref} />}
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
