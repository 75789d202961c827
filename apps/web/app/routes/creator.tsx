import { redirect } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/creator';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Pager } from '../components/ui/pager.tsx';
import { PendingRegion } from '../components/ui/pending.tsx';
import { EmptyBlock } from '../components/ui/spinner.tsx';
import { Thumb } from '../components/ui/thumb.tsx';
import { optional, pageOrigin, pageParam, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { listCreatorProjects } from '../features/catalog/api/list-creator-projects.ts';
import { queryCreator } from '../features/catalog/api/query-creator.ts';
import { GoodsCard, ProjectCard } from '../features/catalog/components/cards.tsx';
import { listUserCollection } from '../features/account/api/list-user-collection.ts';
import { useServerNow } from '../features/catalog/components/use-server-now.ts';
import { cutText } from '../components/ui/html-text.ts';

const PAGE_SIZE = 12;
/** Collectibles the creator holds, shown unless they switched "show my collection" off (privacy settings). */
const COLLECTION_SIZE = 8;

/**
 * Creator page (/creator/:accountId): profile, stats, media links and their releases (?page=).
 * The creator's numeric id (what search suggestions carry) redirects to the accountId URL. No id → /.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!params.id) throw redirect('/');
  const call = serverApi(request);
  const url = new URL(request.url);
  const page = pageParam(url);
  const [byAccount, projects, collection] = await Promise.all([
    queryCreator(call, { accountId: params.id }),
    listCreatorProjects(call, { accountId: params.id, pageNum: page, pageSize: PAGE_SIZE }),
    listUserCollection(call, { accountId: params.id, pageNum: 1, pageSize: COLLECTION_SIZE }),
  ]);
  if (!byAccount.ok && /^\d{1,9}$/.test(params.id)) {
    const byId = await queryCreator(call, { id: Number(params.id) });
    if (byId.ok && byId.data) throw redirect(`/creator/${encodeURIComponent(byId.data.accountId)}${url.search}`, 301);
  }
  return { now: Date.now(), origin: pageOrigin(request), page, creator: required(byAccount), projects: optional(projects), collection: optional(collection) };
}

export default function Creator({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useServerNow(d.now);
  const c = d.creator;
  return (
    <div data-testid="creator-page" data-account-id={c.accountId}>
      <PageMeta title={c.name} description={cutText(c.intro, 120) || t('pages.creator.description')} image={c.avatar} origin={d.origin} />
      <div className="bg-night">
        <div className="mx-auto max-w-[1600px]">
          <Thumb src={c.banner} alt="" width={1200} height={400} eager className="aspect-[3/1] max-h-80 w-full object-cover opacity-90" />
        </div>
      </div>
      <div className="page-width">
        <div className="card relative -mt-16 flex flex-col gap-5 p-6 md:flex-row md:items-start md:p-8">
          <Thumb src={c.avatar} alt={c.name} width={112} height={112} eager className="-mt-16 size-28 shrink-0 rounded-full border-4 border-surface bg-canvas shadow-card md:-mt-20" />
          <div className="min-w-0 flex-1">
            <h1 className="text-2xl text-ink" data-testid="creator-name">
              {c.name}
            </h1>
            <p className="mt-2 text-sm leading-7 text-ink-soft">{c.intro}</p>
            {c.mediaLinks.length > 0 && (
              <p className="mt-3 flex flex-wrap gap-2">
                {c.mediaLinks.map((m) => (
                  <a key={m.url + m.type} href={m.url} target="_blank" rel="noopener noreferrer" className="rounded-full border border-line px-3 py-1 text-xs text-ink-soft hover:border-brand hover:text-brand">
                    {m.label}
                    <span className="sr-only">{t('nav.external')}</span>
                  </a>
                ))}
              </p>
            )}
          </div>
          <dl className="grid shrink-0 grid-cols-3 gap-6 text-center">
            {(
              [
                ['catalog.statReleases', c.projectCount],
                ['catalog.statGoods', c.goodsCount],
                ['catalog.statHolders', c.holderCount],
              ] as const
            ).map(([key, n]) => (
              <div key={key} className="flex flex-col-reverse">
                <dt className="text-xs text-ink-faint">{t(key)}</dt>
                <dd className="tabular text-xl font-semibold text-ink">{n}</dd>
              </div>
            ))}
          </dl>
        </div>

        <section className="py-10" aria-labelledby="creator-releases-title">
          <h2 id="creator-releases-title" className="mb-5 text-xl text-ink">
            {t('catalog.creatorReleases')}
          </h2>
          <PendingRegion id="creator-releases">
            {!d.projects ? (
              <EmptyBlock label={t('common.loadFailed')} />
            ) : d.projects.list.length === 0 ? (
              <EmptyBlock label={t('catalog.noReleases')} />
            ) : (
              <div className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4" data-testid="creator-projects">
                {d.projects.list.map((p) => (
                  <ProjectCard key={p.id} project={p} now={now} />
                ))}
              </div>
            )}
            {d.projects && <Pager page={d.page} total={d.projects.total} pageSize={PAGE_SIZE} anchor="creator-releases" />}
          </PendingRegion>
        </section>

        {d.collection && (
          <section className="pb-10" aria-labelledby="creator-collection-title" data-testid="creator-collection" data-hidden={d.collection.hidden ? '1' : '0'}>
            <h2 id="creator-collection-title" className="mb-5 text-xl text-ink">
              {t('privacy.collection.title')}
            </h2>
            {d.collection.hidden ? (
              <EmptyBlock label={t('privacy.collection.hidden')} />
            ) : d.collection.list.length === 0 ? (
              <EmptyBlock label={t('privacy.collection.empty')} />
            ) : (
              <div className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
                {d.collection.list.map((g) => (
                  <GoodsCard key={g.id} goods={g} />
                ))}
              </div>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
