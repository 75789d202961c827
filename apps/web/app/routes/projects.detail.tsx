import { Link, redirect } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/projects.detail';
import { Breadcrumb } from '../components/ui/breadcrumb.tsx';
import { formatCnDateTime } from '../components/ui/cn-time.ts';
import { htmlToText } from '../components/ui/html-text.ts';
import { FactList } from '../components/ui/fact-list.tsx';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Pager } from '../components/ui/pager.tsx';
import { PendingRegion } from '../components/ui/pending.tsx';
import { Price } from '../components/ui/price.tsx';
import { RichHtml } from '../components/ui/rich-html.tsx';
import { EmptyBlock } from '../components/ui/spinner.tsx';
import { MediaView } from '../components/ui/media-view.tsx';
import { Thumb } from '../components/ui/thumb.tsx';
import { optional, pageOrigin, pageParam, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { getProject } from '../features/catalog/api/get-project.ts';
import { listReleaseGoods } from '../features/catalog/api/list-goods.ts';
import { countdownTarget, liveStatus } from '../features/catalog/countdown.ts';
import { Countdown } from '../components/countdown/countdown.tsx';
import { GoodsCard, StatusBadge } from '../features/catalog/components/cards.tsx';
import { SaleProgress } from '../components/ui/sale-progress.tsx';
import { useClock } from '../components/countdown/use-clock.ts';
import { ShareButton } from '../features/share/components/share-button.tsx';
import { getBoxInfo } from '../lib/goods-flow/calls.ts';
import { BoxOddsSection } from '../features/boxes/components/box-odds-section.tsx';

const GOODS_PAGE_SIZE = 12;

/** Release detail (/projects/detail/:id): facts, live countdown, description, its collectibles (?page=). No id → /projects. */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!params.id) throw redirect('/projects');
  const call = serverApi(request);
  const page = pageParam(new URL(request.url));
  const project = required(await getProject(call, params.id));
  const [goods, box] = await Promise.all([
    listReleaseGoods(call, { projectId: project.id, pageNum: page, pageSize: GOODS_PAGE_SIZE }).then(optional),
    // A blind-box release shows its odds and the way to its draw proof.
    getBoxInfo(call, project.id).then(optional),
  ]);
  return { now: project.serverTime, origin: pageOrigin(request), project, goods, box, page };
}

export default function ProjectDetail({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useClock({ serverTime: d.now });
  const p = d.project;
  const status = liveStatus(p, now);
  const target = countdownTarget(p, now);
  const description = htmlToText(p.descriptionHtml, 120) || t('pages.projectDetail.description');
  return (
    <div className="page-width py-8" data-testid="project-detail" data-id={p.id}>
      <PageMeta title={p.name} description={description} image={p.cover} origin={d.origin} />
      <Breadcrumb items={[{ label: t('nav.releases'), to: '/projects' }, { label: p.name }]} />

      <div className="grid gap-8 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="card overflow-hidden">
          <MediaView kind={p.media?.kind} src={p.media?.url} poster={p.cover} alt={p.name} width={600} height={600} eager className="aspect-square w-full bg-night-soft object-cover" />
        </div>
        <div className="flex flex-col">
          <div className="flex items-center gap-2">
            <StatusBadge status={status} phases={p.phases} now={now} />
            {p.category && <span className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs text-brand">{p.category}</span>}
          </div>
          <h1 className="mt-3 text-3xl text-ink" data-testid="project-name">
            {p.name}
          </h1>
          <Link to={`/creator/${encodeURIComponent(p.creator.accountId)}`} className="mt-3 flex w-max items-center gap-2 text-sm text-ink-soft hover:text-brand" data-testid="project-creator">
            <Thumb src={p.creator.avatar} alt="" width={28} height={28} className="size-7 rounded-full bg-canvas" />
            {p.creator.name}
          </Link>
          <ShareButton target={{ type: 'project', id: p.id, name: p.name }} className="mt-3 h-9 w-max" />

          <div className="card mt-6 p-5">
            <p className="text-xs text-ink-faint">{t('catalog.issuePrice')}</p>
            <Price fen={p.priceFen} className="mt-1 block text-3xl font-bold text-brand" testId="project-price" />
            <div className="mt-4">
              <SaleProgress sold={p.sold} supply={p.supply} remaining={p.remaining} />
            </div>
            {target ? (
              <p className="mt-4 flex flex-wrap items-center gap-2 text-sm text-ink-soft" data-testid="project-countdown" data-kind={target.kind}>
                {t(target.kind === 'start' ? 'catalog.startsIn' : 'catalog.endsIn')}
                <Countdown ms={target.at - now} className="text-base font-semibold text-ink" />
              </p>
            ) : (
              <p className="mt-4 text-sm text-ink-faint">{t(`catalog.status.${status}`)}</p>
            )}
            {status === 'upcoming' || status === 'on_sale' ? (
              <Link to={`/projects/dropping/${p.id}`} className="btn-primary mt-5 h-11 w-full text-base" data-testid="project-dropping-link" prefetch="intent">
                {status === 'upcoming' ? t('catalog.goDropping') : t('catalog.buyNow')}
              </Link>
            ) : (
              <span className="btn mt-5 h-11 w-full cursor-not-allowed bg-canvas text-base text-ink-faint" aria-disabled="true">
                {t(`catalog.status.${status}`)}
              </span>
            )}
          </div>

          <FactList
            className="mt-4"
            rows={[
              [t('catalog.saleStart'), <span className="tabular">{formatCnDateTime(p.saleStartAt)}</span>],
              [t('catalog.saleEnd'), p.saleEndAt ? <span className="tabular">{formatCnDateTime(p.saleEndAt)}</span> : t('catalog.noEnd')],
              [t('catalog.supplyLabel'), <span className="tabular">{p.supply}</span>],
              [t('catalog.holding'), p.holdingDays > 0 ? t('catalog.holdingDays', { count: p.holdingDays }) : t('catalog.none')],
              [t('catalog.contract'), p.contractAddress ? <span className="font-mono text-xs">{p.contractAddress}</span> : t('catalog.notOnChain')],
              [t('catalog.tokenRange'), p.tokenStart && p.tokenEnd ? <span className="tabular font-mono text-xs">{`#${p.tokenStart} – #${p.tokenEnd}`}</span> : ''],
            ]}
          />
        </div>
      </div>

      {d.box && <BoxOddsSection info={d.box} />}

      <section className="card mt-10 px-6 py-6 md:px-10" aria-labelledby="project-desc-title">
        <h2 id="project-desc-title" className="text-lg text-ink">
          {t('catalog.about')}
        </h2>
        <RichHtml html={p.descriptionHtml} testId="project-description" />
      </section>

      <section className="mt-10" aria-labelledby="release-goods-title">
        <h2 id="release-goods-title" className="mb-5 text-xl text-ink">
          {t('catalog.releaseGoods')}
          {d.goods && <span className="tabular ml-2 text-sm font-normal text-ink-faint">{d.goods.total}</span>}
        </h2>
        <PendingRegion id="release-goods">
          {!d.goods ? (
            <EmptyBlock label={t('common.loadFailed')} />
          ) : d.goods.list.length === 0 ? (
            <EmptyBlock label={status === 'upcoming' ? t('catalog.noGoodsYet') : t('catalog.noGoods')} />
          ) : (
            <div className="grid grid-cols-2 gap-4 md:grid-cols-4 lg:grid-cols-6">
              {d.goods.list.map((g) => (
                <GoodsCard key={g.id} goods={g} />
              ))}
            </div>
          )}
          {d.goods && <Pager page={d.page} total={d.goods.total} pageSize={GOODS_PAGE_SIZE} anchor="release-goods" />}
        </PendingRegion>
      </section>
    </div>
  );
}
