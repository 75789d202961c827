import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/home';
import { formatCnDate } from '../components/ui/cn-time.ts';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { optional, pageOrigin, serverApi } from '../features/catalog/api/server-api.server.ts';
import { listProjects } from '../features/catalog/api/list-projects.ts';
import type { CreatorCard as Creator, GoodsCard as Goods, ProjectCard as Project } from '../features/catalog/api/types.ts';
import { CreatorCard, GoodsCard, ProjectCard } from '../features/catalog/components/cards.tsx';
import { useClock } from '../components/countdown/use-clock.ts';
import { listIndexBanners } from '../features/content/api/list-index-banners.ts';
import { listNews } from '../features/content/api/list-news.ts';
import { listPlacedNews } from '../features/content/api/list-placed-news.ts';
import { listRecommend } from '../features/content/api/list-recommend.ts';
import type { RecommendList } from '../features/content/api/types.ts';
import { BannerCarousel } from '../features/content/components/banner-carousel.tsx';
import { Marquee } from '../features/content/components/marquee.tsx';
import { NewsCard } from '../features/content/components/news-card.tsx';

/**
 * Home modules: banners (GET indexBanner), marquee, recommend, projects, hot, creators,
 * news. Every module is optional — a failing call leaves its module empty instead of failing the page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const call = serverApi(request);
  const [banners, recommend, projects, news, placed] = await Promise.all([
    listIndexBanners(call),
    listRecommend(call),
    listProjects(call, { pageNum: 1, pageSize: 8 }),
    listNews(call, { pageNum: 1, pageSize: 4 }),
    listPlacedNews(call),
  ]);
  const lists = optional(recommend) ?? [];
  const items = <K extends 'project' | 'goods' | 'creator'>(code: string, key: K) =>
    (lists.find((l: RecommendList) => l.code === code)?.items ?? []).flatMap((i) => (i[key] ? [i[key]!] : []));
  const latest = optional(news)?.list ?? [];
  const pinned = optional(placed) ?? [];
  return {
    now: Date.now(),
    origin: pageOrigin(request),
    banners: optional(banners) ?? [],
    marquee: (pinned.length ? pinned : latest).slice(0, 8),
    recommend: items('home_recommend', 'project') as Project[],
    hot: items('home_hot', 'goods').slice(0, 8) as Goods[],
    creators: items('home_creators', 'creator').slice(0, 6) as Creator[],
    projects: optional(projects)?.list ?? [],
    news: latest.map((n) => ({ ...n, date: formatCnDate(n.publishedAt) })),
  };
}

export default function Home({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useClock({ serverTime: d.now });
  return (
    <>
      <PageMeta title={t('pages.home.title')} description={t('pages.home.description')} origin={d.origin} image={d.banners[0]?.image} />
      <section className="relative overflow-hidden bg-night text-white" data-testid="home-hero">
        <div
          aria-hidden
          className="absolute inset-0 opacity-80"
          style={{
            background:
              'radial-gradient(60% 80% at 20% 10%, rgb(91 76 240 / 0.55), transparent 60%), radial-gradient(50% 70% at 85% 30%, rgb(245 185 66 / 0.25), transparent 60%)',
          }}
        />
        <div className="page-width relative grid items-center gap-10 pb-14 pt-[calc(var(--spacing-header)+3rem)] lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
          <div>
            <p className="text-sm tracking-[0.2em] text-white/60">{t('app.tagline')}</p>
            <h1 className="mt-4 text-4xl font-bold leading-tight md:text-5xl">{t('home.heroTitle')}</h1>
            <p className="mt-5 max-w-xl text-base text-white/75">{t('home.heroSubtitle')}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/projects" className="btn-primary h-11 px-6" prefetch="intent">
                {t('home.browseReleases')}
              </Link>
              <Link to="/sales" className="btn h-11 border border-white/30 px-6 text-white hover:bg-white/10" prefetch="intent">
                {t('home.browseMarket')}
              </Link>
            </div>
          </div>
          {d.banners.length > 0 && <BannerCarousel banners={d.banners} />}
        </div>
      </section>

      {d.marquee.length > 0 && (
        <div className="border-b border-line bg-surface">
          <div className="page-width">
            <Marquee items={d.marquee} />
          </div>
        </div>
      )}

      <div className="page-width space-y-14 py-12">
        <Module testId="home-recommend" title={t('homeModules.recommend')} more="/projects" empty={d.recommend.length === 0}>
          <div className="-mx-1 flex snap-x gap-4 overflow-x-auto px-1 pb-2 lg:grid lg:grid-cols-5 lg:overflow-visible">
            {d.recommend.map((p) => (
              <div key={p.id} className="w-[15rem] shrink-0 snap-start lg:w-auto">
                <ProjectCard project={p} now={now} />
              </div>
            ))}
          </div>
        </Module>

        <Module testId="home-projects" title={t('homeModules.projects')} more="/projects" empty={d.projects.length === 0}>
          <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
            {d.projects.map((p) => (
              <ProjectCard key={p.id} project={p} now={now} />
            ))}
          </div>
        </Module>

        <Module testId="home-hot" title={t('homeModules.hot')} more="/sales" empty={d.hot.length === 0}>
          <div className="grid grid-cols-2 gap-4 md:grid-cols-4">
            {d.hot.map((g) => (
              <GoodsCard key={g.id} goods={g} />
            ))}
          </div>
        </Module>

        <Module testId="home-creators" title={t('homeModules.creators')} empty={d.creators.length === 0}>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {d.creators.map((c) => (
              <CreatorCard key={c.id} creator={c} />
            ))}
          </div>
        </Module>

        <Module testId="home-news" title={t('homeModules.news')} more="/news" empty={d.news.length === 0}>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {d.news.map((n) => (
              <NewsCard key={n.id} news={n} date={n.date} />
            ))}
          </div>
        </Module>
      </div>
    </>
  );
}

function Module({ testId, title, more, empty, children }: { testId: string; title: string; more?: string; empty: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section data-testid={testId} aria-labelledby={`${testId}-title`}>
      <div className="mb-5 flex items-end justify-between">
        <h2 id={`${testId}-title`} className="text-2xl text-ink">
          {title}
        </h2>
        {more && (
          <Link to={more} prefetch="intent" className="text-sm text-ink-faint hover:text-brand">
            {t('homeModules.more')} →
          </Link>
        )}
      </div>
      {empty ? (
        <p className="py-12 text-center text-ink-faint" data-testid="empty">
          {t('common.empty')}
        </p>
      ) : (
        children
      )}
    </section>
  );
}
