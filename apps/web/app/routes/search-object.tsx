import { useTranslation } from '../i18n/index.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import type { Route } from './+types/search-object';
import { LinkTabs } from '../components/ui/link-tabs.tsx';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Pager } from '../components/ui/pager.tsx';
import { PendingRegion } from '../components/ui/pending.tsx';
import { EmptyBlock } from '../components/ui/spinner.tsx';
import { pageOrigin, pageParam, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { CreatorCard, GoodsCard, ProjectCard } from '../features/catalog/components/cards.tsx';
import { useClock } from '../components/countdown/use-clock.ts';
import { queryFinal } from '../features/search-results/api/query-final.ts';
import { parseTab, pickTab, SEARCH_TABS, TAB_TYPE } from '../features/search-results/tabs.ts';

const PAGE_SIZE = 12;

/**
 * Search results (/search-object?str=…&tab=…&page=…): releases, collectibles and creators in tabs,
 * server-rendered. The header box records the search in the user's history (with their token);
 * this loader searches anonymously.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const str = Array.from((url.searchParams.get('str') ?? '').trim()).slice(0, LIMITS.searchMax).join('');
  const chosen = parseTab(url.searchParams.get('tab'));
  const page = pageParam(url);
  const base = { now: Date.now(), origin: pageOrigin(request), str, page };
  if (!str) return { ...base, tab: chosen ?? 'projects', results: null };
  const results = required(
    await queryFinal(serverApi(request), { text: str, pageNum: page, pageSize: PAGE_SIZE, type: chosen ? TAB_TYPE[chosen] : 'all' }),
  );
  const tab = pickTab(chosen, { projects: results.projects.total, goods: results.goods.total, creators: results.creators.total });
  return { ...base, tab, results };
}

export default function SearchObject({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useClock({ serverTime: d.now });
  const r = d.results;
  const title = d.str ? t('search.resultsFor', { str: d.str }) : t('pages.search.title');
  const current = r ? r[d.tab] : null;
  return (
    <div className="page-width py-8" data-testid="search-page" data-tab={d.tab}>
      <PageMeta title={title} description={t('pages.search.description')} origin={d.origin} />
      <h1 className="text-2xl text-ink" data-testid="search-query">
        {title}
      </h1>
      {!r ? (
        <EmptyBlock label={t('searchPage.enterKeyword')} />
      ) : (
        <>
          <p className="mt-1 text-sm text-ink-faint" data-testid="search-total">
            {t('searchPage.total', { count: r.projects.total + r.goods.total + r.creators.total })}
          </p>
          <div className="mt-6">
            <LinkTabs
              testId="search-tabs"
              param="tab"
              value={d.tab}
              label={t('searchPage.tabs')}
              tabs={SEARCH_TABS.map((tab) => ({ value: tab, label: t(`searchPage.tab.${tab}`), count: r[tab].total }))}
            />
          </div>
          <PendingRegion id="search-results" className="mt-6">
            {!current || current.list.length === 0 ? (
              <EmptyBlock label={t('searchPage.noResults', { str: d.str })} />
            ) : d.tab === 'projects' ? (
              <div className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
                {r.projects.list.map((p, i) => (
                  <ProjectCard key={p.id} project={p} now={now} eager={i < 4} level={2} />
                ))}
              </div>
            ) : d.tab === 'goods' ? (
              <div className="grid grid-cols-2 gap-4 md:grid-cols-4 lg:grid-cols-6">
                {r.goods.list.map((g, i) => (
                  <GoodsCard key={g.id} goods={g} eager={i < 6} level={2} />
                ))}
              </div>
            ) : (
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {r.creators.list.map((c) => (
                  <CreatorCard key={c.id} creator={c} level={2} />
                ))}
              </div>
            )}
            {current && <Pager page={d.page} total={current.total} pageSize={PAGE_SIZE} anchor="search-results" />}
          </PendingRegion>
        </>
      )}
    </div>
  );
}
