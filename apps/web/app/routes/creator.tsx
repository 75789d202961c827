import { lazy, Suspense, useEffect, useState } from 'react';
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
import { useClock } from '../components/countdown/use-clock.ts';
import { cutText } from '../components/ui/html-text.ts';
import { listMoments } from '../features/creators/api/list-moments.ts';
import type { CreatorDetail, Moment } from '../features/creators/api/types.ts';
import { FollowButton } from '../features/creators/components/follow-button.tsx';
import { MomentList } from '../features/creators/components/moments.tsx';
import { VerifiedMark } from '../features/catalog/components/verified-mark.tsx';
import { useFollow } from '../features/creators/components/use-follow.ts';
import { useCreatorMoments } from '../features/creators/components/use-moments.ts';
import { useUserStore } from '../stores/user.ts';

/** The creator's own tools (edit profile, post a moment): a lazy chunk, loaded when one is opened. */
const OwnerDialogs = lazy(() => import('../features/creators/components/owner-dialogs.tsx'));

const PAGE_SIZE = 12;
/** Collectibles the creator holds, shown unless they switched "show my collection" off (privacy settings). */
const COLLECTION_SIZE = 8;
const MOMENTS_SIZE = 10;

/**
 * Creator page (/creator/:accountId): profile, stats, media links and their releases (?page=).
 * The creator's numeric id (what search suggestions carry) redirects to the accountId URL. No id → /.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!params.id) throw redirect('/');
  const call = serverApi(request);
  const url = new URL(request.url);
  const page = pageParam(url);
  const [byAccount, projects, collection, moments] = await Promise.all([
    queryCreator(call, { accountId: params.id }),
    listCreatorProjects(call, { accountId: params.id, pageNum: page, pageSize: PAGE_SIZE }),
    listUserCollection(call, { accountId: params.id, pageNum: 1, pageSize: COLLECTION_SIZE }),
    listMoments(call, { accountId: params.id, pageNum: 1, pageSize: MOMENTS_SIZE }),
  ]);
  if (!byAccount.ok && /^\d{1,9}$/.test(params.id)) {
    const byId = await queryCreator(call, { id: Number(params.id) });
    if (byId.ok && byId.data) throw redirect(`/creator/${encodeURIComponent(byId.data.accountId)}${url.search}`, 301);
  }
  return {
    now: Date.now(),
    origin: pageOrigin(request),
    page,
    creator: required(byAccount),
    projects: optional(projects),
    collection: optional(collection),
    moments: optional(moments),
  };
}

/**
 * The page renders the visitor's view on the server; in the browser the signed-in viewer gets their
 * follow state (useFollow), and the creator viewing their own page gets the edit and post tools and
 * delete buttons on their moments.
 */
export default function Creator({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useClock({ serverTime: d.now });
  const [c, setC] = useState<CreatorDetail>(d.creator);
  useEffect(() => setC(d.creator), [d.creator]);
  const myAccount = useUserStore((s) => s.accountId);
  const own = myAccount !== '' && myAccount === c.accountId;
  const [momentCount, setMomentCount] = useState(d.creator.momentCount);
  useEffect(() => setMomentCount(d.creator.momentCount), [d.creator.momentCount]);
  const follow = useFollow(c.id, { following: d.creator.following, followerCount: d.creator.followerCount }, (x) => setMomentCount(x.momentCount));
  const moments = useCreatorMoments(c.accountId, d.moments, MOMENTS_SIZE);
  const [dialog, setDialog] = useState<'edit' | 'post' | null>(null);

  const posted = (m: Moment) => {
    moments.added(m);
    setMomentCount((n) => n + 1);
    setDialog(null);
  };
  const deleted = (id: number) => {
    moments.removed(id);
    setMomentCount((n) => Math.max(0, n - 1));
  };

  return (
    <div data-testid="creator-page" data-account-id={c.accountId} data-own={own ? '1' : '0'}>
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
            <div className="flex items-center gap-2">
              <h1 className="text-2xl text-ink" data-testid="creator-name">
                {c.name}
              </h1>
              {c.verified && <VerifiedMark size="md" />}
            </div>
            <p className="mt-2 whitespace-pre-line text-sm leading-7 text-ink-soft" data-testid="creator-intro">
              {c.intro}
            </p>
            {c.mediaLinks.length > 0 && (
              <p className="mt-3 flex flex-wrap gap-2" data-testid="creator-media-links">
                {c.mediaLinks.map((m) => (
                  <a key={m.url + m.type} href={m.url} target="_blank" rel="noopener noreferrer nofollow" className="rounded-full border border-line px-3 py-1 text-xs text-ink-soft hover:border-brand hover:text-brand">
                    {m.label}
                    <span className="sr-only">{t('nav.external')}</span>
                  </a>
                ))}
              </p>
            )}
            <div className="mt-4 flex flex-wrap items-center gap-3">
              {own ? (
                <>
                  <button type="button" className="btn-primary" onClick={() => setDialog('post')} data-testid="creator-post-button">
                    {t('creators.postMoment')}
                  </button>
                  <button type="button" className="btn-ghost" onClick={() => setDialog('edit')} data-testid="creator-edit-button">
                    {t('creators.editProfile')}
                  </button>
                  <span className="text-xs text-ink-faint">{t('creators.ownHint')}</span>
                </>
              ) : (
                <FollowButton view={follow} />
              )}
            </div>
          </div>
          <dl className="grid shrink-0 grid-cols-3 gap-x-6 gap-y-4 text-center">
            {(
              [
                ['creators.followers', follow.followerCount, 'creator-follower-count'],
                ['creators.moments', momentCount, 'creator-moment-count'],
                ['catalog.statReleases', c.projectCount, undefined],
                ['catalog.statGoods', c.goodsCount, undefined],
                ['catalog.statHolders', c.holderCount, undefined],
              ] as const
            ).map(([key, n, testId]) => (
              <div key={key} className="flex flex-col-reverse">
                <dt className="text-xs text-ink-faint">{t(key)}</dt>
                <dd className="tabular text-xl font-semibold text-ink" data-testid={testId}>
                  {n}
                </dd>
              </div>
            ))}
          </dl>
        </div>

        <div className="grid grid-cols-1 gap-8 py-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,380px)]">
          <section aria-labelledby="creator-releases-title">
            <h2 id="creator-releases-title" className="mb-5 text-xl text-ink">
              {t('catalog.creatorReleases')}
            </h2>
            <PendingRegion id="creator-releases">
              {!d.projects ? (
                <EmptyBlock label={t('common.loadFailed')} />
              ) : d.projects.list.length === 0 ? (
                <EmptyBlock label={t('catalog.noReleases')} />
              ) : (
                <div className="grid grid-cols-2 gap-4 md:grid-cols-3" data-testid="creator-projects">
                  {d.projects.list.map((p) => (
                    <ProjectCard key={p.id} project={p} now={now} />
                  ))}
                </div>
              )}
              {d.projects && <Pager page={d.page} total={d.projects.total} pageSize={PAGE_SIZE} anchor="creator-releases" />}
            </PendingRegion>
          </section>

          <section aria-labelledby="creator-moments-title" className="card h-fit p-5" data-testid="creator-moments">
            <h2 id="creator-moments-title" className="mb-2 text-xl text-ink">
              {t('creators.momentsTitle')}
            </h2>
            <MomentList
              moments={moments.list}
              total={moments.total}
              loading={moments.loading}
              failed={moments.failed}
              empty={own ? t('creators.noMomentsOwn') : t('creators.noMoments')}
              canDelete={() => own}
              onDeleted={deleted}
              onMore={moments.more}
              onRetry={moments.more}
            />
          </section>
        </div>

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
      {own && dialog && (
        <Suspense fallback={null}>
          <OwnerDialogs
            which={dialog}
            creator={c}
            onClose={() => setDialog(null)}
            onSaved={(next) => {
              setC(next);
              setDialog(null);
            }}
            onPosted={posted}
          />
        </Suspense>
      )}
    </div>
  );
}
