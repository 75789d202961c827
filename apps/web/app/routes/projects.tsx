import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/projects';
import { LinkTabs } from '../components/ui/link-tabs.tsx';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Pager } from '../components/ui/pager.tsx';
import { PendingRegion } from '../components/ui/pending.tsx';
import { EmptyBlock } from '../components/ui/spinner.tsx';
import { pageOrigin, pageParam, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { listProjects } from '../features/catalog/api/list-projects.ts';
import type { ProjectFilter } from '../features/catalog/api/types.ts';
import { ProjectCard } from '../features/catalog/components/cards.tsx';
import { useClock } from '../components/countdown/use-clock.ts';

const PAGE_SIZE = 12;
const FILTERS: ProjectFilter[] = ['all', 'upcoming', 'on_sale', 'sold_out', 'ended'];

/** Releases list (/projects): status filter (?status=), paging (?page=), live countdowns. */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get('status') ?? 'all';
  const status = (FILTERS as string[]).includes(raw) ? (raw as ProjectFilter) : 'all';
  const page = pageParam(url);
  const list = required(await listProjects(serverApi(request), { pageNum: page, pageSize: PAGE_SIZE, status }));
  return { now: Date.now(), origin: pageOrigin(request), status, page, list };
}

export default function Projects({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useClock({ serverTime: d.now });
  return (
    <div className="page-width py-8" data-testid="projects-page">
      <PageMeta title={t('pages.projects.title')} description={t('pages.projects.description')} origin={d.origin} image={d.list.list[0]?.cover} />
      <h1 className="text-2xl text-ink">{t('catalog.releasesTitle')}</h1>
      <p className="mt-1 text-ink-faint">{t('pages.projects.description')}</p>
      <div className="mt-6">
        <LinkTabs
          testId="status-filter"
          param="status"
          defaultValue="all"
          value={d.status}
          label={t('catalog.statusFilter')}
          tabs={FILTERS.map((f) => ({ value: f, label: f === 'all' ? t('catalog.all') : t(`catalog.status.${f}`) }))}
        />
      </div>
      <PendingRegion id="projects-list" className="mt-6">
        {d.list.list.length === 0 ? (
          <EmptyBlock label={t('catalog.noReleases')} />
        ) : (
          <div className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
            {d.list.list.map((p, i) => (
              <ProjectCard key={p.id} project={p} now={now} eager={i < 4} level={2} />
            ))}
          </div>
        )}
        <Pager page={d.page} total={d.list.total} pageSize={PAGE_SIZE} anchor="projects-list" />
      </PendingRegion>
    </div>
  );
}
