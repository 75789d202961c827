import { Link } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/news';
import { formatCnDate } from '../components/ui/cn-time.ts';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Pager } from '../components/ui/pager.tsx';
import { PendingRegion } from '../components/ui/pending.tsx';
import { EmptyBlock } from '../components/ui/spinner.tsx';
import { optional, pageOrigin, pageParam, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { listHotNews } from '../features/content/api/list-hot-news.ts';
import { listNewsBanners } from '../features/content/api/list-news-banners.ts';
import { listNews } from '../features/content/api/list-news.ts';
import { BannerCarousel } from '../features/content/components/banner-carousel.tsx';
import { NewsCard } from '../features/content/components/news-card.tsx';

const PAGE_SIZE = 10;

/**
 * News list (/news): newest first, paged (?page=), with the hot list on the side and, on the first
 * page, the news banners (newsBannerList) above the list; none, or a failing call, shows no carousel.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const call = serverApi(request);
  const page = pageParam(new URL(request.url));
  const [list, hot, banners] = await Promise.all([
    listNews(call, { pageNum: page, pageSize: PAGE_SIZE }),
    listHotNews(call),
    page === 1 ? listNewsBanners(call) : null,
  ]);
  const page1 = required(list);
  const dated = <T extends { publishedAt: number }>(n: T) => ({ ...n, date: formatCnDate(n.publishedAt) });
  return {
    origin: pageOrigin(request),
    page,
    list: { ...page1, list: page1.list.map(dated) },
    hot: (optional(hot) ?? []).slice(0, 8).map(dated),
    banners: (banners && optional(banners)) ?? [],
  };
}

export default function News({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="page-width py-8" data-testid="news-page">
      <PageMeta title={t('pages.news.title')} description={t('pages.news.description')} origin={d.origin} image={d.banners[0]?.image} />
      <h1 className="text-2xl text-ink">{t('content.newsTitle')}</h1>
      <p className="mt-1 text-ink-faint">{t('pages.news.description')}</p>
      <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,1fr)_300px]">
        <PendingRegion id="news-list">
          {d.banners.length > 0 && (
            <div className="mb-6">
              <BannerCarousel banners={d.banners} testId="news-banners" label={t('content.banners')} />
            </div>
          )}
          {d.list.list.length === 0 ? (
            <EmptyBlock label={t('content.noNews')} />
          ) : (
            <div className="space-y-4">
              {d.list.list.map((n, i) => (
                <NewsCard key={n.id} news={n} date={n.date} row eager={i < 2} level={2} />
              ))}
            </div>
          )}
          <Pager page={d.page} total={d.list.total} pageSize={PAGE_SIZE} anchor="news-list" />
        </PendingRegion>
        <aside className="card h-max p-5" data-testid="news-hot">
          <h2 className="text-base text-ink">{t('content.hot')}</h2>
          {d.hot.length === 0 ? (
            <p className="py-6 text-center text-sm text-ink-faint">{t('common.empty')}</p>
          ) : (
            <ol className="mt-3 space-y-3">
              {d.hot.map((n, i) => (
                <li key={n.id} className="flex gap-3 text-sm">
                  <span className={`tabular w-5 shrink-0 text-center font-semibold ${i < 3 ? 'text-brand' : 'text-ink-faint'}`}>{i + 1}</span>
                  <span className="min-w-0">
                    <Link to={`/news/${n.id}`} className="line-clamp-2 text-ink-soft hover:text-brand">
                      {n.title}
                    </Link>
                    <span className="tabular text-xs text-ink-faint">{n.date}</span>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </aside>
      </div>
    </div>
  );
}
