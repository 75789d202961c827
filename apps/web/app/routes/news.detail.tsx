import { Link } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/news.detail';
import { Breadcrumb } from '../components/ui/breadcrumb.tsx';
import { formatCnDateTime } from '../components/ui/cn-time.ts';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { RichHtml } from '../components/ui/rich-html.tsx';
import { pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { getNews } from '../features/content/api/get-news.ts';

/** News item (/news/:id): the server-sanitised article, its neighbours. An unknown id is a real 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const news = required(await getNews(serverApi(request), params.id));
  return { origin: pageOrigin(request), news };
}

export default function NewsItem({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const n = d.news;
  return (
    <div className="page-width py-8" data-testid="news-detail" data-id={n.id}>
      <PageMeta title={n.title} description={n.summary || t('pages.newsItem.description')} image={n.cover} origin={d.origin} type="article" />
      <Breadcrumb items={[{ label: t('nav.news'), to: '/news' }, { label: n.title }]} />
      <article className="card mx-auto max-w-3xl px-6 py-8 md:px-12 md:py-10">
        <p className="text-sm text-brand">{n.category}</p>
        <h1 className="mt-2 text-2xl leading-snug text-ink md:text-3xl" data-testid="news-title">
          {n.title}
        </h1>
        <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-faint">
          <span>{t('content.author', { author: n.author })}</span>
          <span className="tabular">{t('content.published', { time: formatCnDateTime(n.publishedAt) })}</span>
          <span className="tabular">{t('content.views', { count: n.views })}</span>
        </p>
        {n.summary && <p className="mt-6 rounded-control bg-canvas px-4 py-3 text-sm leading-7 text-ink-soft">{n.summary}</p>}
        {/* The article's own headings start at h3: this keeps the outline h1 → h2 → h3. */}
        <h2 className="sr-only">{t('content.body')}</h2>
        <RichHtml html={n.contentHtml} className="mt-4" testId="news-content" />
        <nav aria-label={t('content.neighbours')} className="mt-10 grid gap-3 border-t border-line pt-6 text-sm sm:grid-cols-2">
          <span className="min-w-0">
            <span className="text-ink-faint">{t('content.prev')}</span>
            {n.prev ? (
              <Link to={`/news/${n.prev.id}`} className="block truncate text-ink-soft hover:text-brand" data-testid="news-prev">
                {n.prev.title}
              </Link>
            ) : (
              <span className="block text-ink-faint">{t('content.none')}</span>
            )}
          </span>
          <span className="min-w-0 sm:text-right">
            <span className="text-ink-faint">{t('content.next')}</span>
            {n.next ? (
              <Link to={`/news/${n.next.id}`} className="block truncate text-ink-soft hover:text-brand" data-testid="news-next">
                {n.next.title}
              </Link>
            ) : (
              <span className="block text-ink-faint">{t('content.none')}</span>
            )}
          </span>
        </nav>
        <div className="mt-8 text-center">
          <Link to="/news" className="btn-ghost">
            {t('content.backToList')}
          </Link>
        </div>
      </article>
    </div>
  );
}
