/**
 * The catalog's cards (one module, so pages that show several kinds load one chunk): release,
 * collectible and creator cards, the status pill and the countdown line of a release.
 */
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Price } from '../../../components/ui/price.tsx';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { CreatorCard as Creator, GoodsCard as Goods, ProjectCard as Project, ProjectStatus, SaleWindow } from '../api/types.ts';
import { countdownTarget, livePhase, liveStatus, type SaleTimes } from '../countdown.ts';
import { Countdown } from '../../../components/countdown/countdown.tsx';
import { VerifiedMark } from './verified-mark.tsx';

const TONE: Record<ProjectStatus, string> = {
  upcoming: 'bg-accent text-night',
  on_sale: 'bg-brand text-white',
  sold_out: 'bg-ink-soft text-white',
  ended: 'bg-ink-faint text-white',
};

/**
 * 即将开售 / 发售中 / 已售罄 / 已结束 as a small pill; while on sale in a sale phase other than the public
 * one it names the phase instead (抽签报名中, 等待开奖, 中签优先购, 白名单优先购, 免费领取中).
 */
export function StatusBadge({ status, phases, now = 0, className = '' }: { status: ProjectStatus; phases?: readonly SaleWindow[]; now?: number; className?: string }) {
  const { t } = useTranslation();
  const phase = status === 'on_sale' ? livePhase(phases, now) : null;
  return (
    <span className={`inline-flex h-6 items-center rounded-full px-2.5 text-xs font-medium ${TONE[status]} ${className}`} data-testid="status-badge" data-status={status} data-phase={phase ?? undefined}>
      {phase ? t(`catalog.phase.${phase}`) : t(`catalog.status.${status}`)}
    </span>
  );
}

/** One line under a release: 距开售 / 距结束 with the countdown, else the final state. */
export function SaleLine({ project, now, className = '' }: { project: SaleTimes; now: number; className?: string }) {
  const { t } = useTranslation();
  const target = countdownTarget(project, now);
  const status = liveStatus(project, now);
  return (
    <p className={`flex items-center gap-1.5 text-xs ${className}`} data-testid="sale-line" data-status={status}>
      {target ? (
        <>
          <span className="text-ink-faint">{t(target.kind === 'start' ? 'catalog.startsIn' : 'catalog.endsIn')}</span>
          <Countdown ms={target.at - now} className={target.kind === 'start' ? 'text-warning' : 'text-brand'} />
        </>
      ) : (
        <span className="text-ink-faint">{status === 'on_sale' ? t('catalog.remaining', { count: project.remaining }) : t(`catalog.status.${status}`)}</span>
      )}
    </p>
  );
}

/** `level` 2 where the list follows the page's h1 directly (heading order), else 3 (under a section h2). */
export type CardLevel = 2 | 3;

/** Image-first release card: cover, status, name, creator, price, supply and the live countdown. */
export function ProjectCard({ project: p, now, eager = false, level = 3 }: { project: Project; now: number; eager?: boolean; level?: CardLevel }) {
  const H = level === 2 ? 'h2' : 'h3';
  const { t } = useTranslation();
  return (
    <Link
      to={`/projects/detail/${p.id}`}
      prefetch="intent"
      className="card group block overflow-hidden transition-shadow hover:shadow-pop"
      data-testid="project-card"
      data-id={p.id}
    >
      <div className="relative aspect-square overflow-hidden bg-night-soft">
        <Thumb src={p.cover} alt={p.name} width={288} height={288} eager={eager} className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]" />
        <StatusBadge status={liveStatus(p, now)} phases={p.phases} now={now} className="absolute left-3 top-3" />
      </div>
      <div className="p-4">
        <H className="truncate text-base text-ink" data-testid="project-card-name">
          {p.name}
        </H>
        <p className="mt-1 flex items-center gap-1.5 text-xs text-ink-faint">
          <Thumb src={p.creator.avatar} alt="" width={18} height={18} className="size-[18px] rounded-full bg-canvas" />
          <span className="truncate">{p.creator.name}</span>
          {p.category && <span className="shrink-0">· {p.category}</span>}
        </p>
        <div className="mt-3 flex items-end justify-between gap-2">
          <Price fen={p.priceFen} className="text-lg font-semibold text-ink" />
          <span className="text-xs text-ink-faint">{t('catalog.supply', { count: p.supply })}</span>
        </div>
        <SaleLine project={p} now={now} className="mt-2 border-t border-line pt-2" />
      </div>
    </Link>
  );
}

/** Image-first collectible card: artwork, name, serial, release, and the asking or last price. */
export function GoodsCard({ goods: g, eager = false, level = 3 }: { goods: Goods; eager?: boolean; level?: CardLevel }) {
  const H = level === 2 ? 'h2' : 'h3';
  const { t } = useTranslation();
  const onSale = g.status === 'on_sale' && g.salePriceFen !== null;
  return (
    <Link
      to={`/assets/${g.id}`}
      prefetch="intent"
      className="card group block overflow-hidden transition-shadow hover:shadow-pop"
      data-testid="goods-card"
      data-id={g.id}
    >
      <div className="relative aspect-square overflow-hidden bg-night-soft">
        <Thumb src={g.image} alt={g.name} width={288} height={288} eager={eager} className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]" />
        {onSale && <span className="absolute left-3 top-3 rounded-full bg-brand px-2.5 py-0.5 text-xs font-medium text-white">{t('catalog.onSale')}</span>}
      </div>
      <div className="p-4">
        <H className="truncate text-[15px] text-ink" data-testid="goods-card-name">
          {g.name}
        </H>
        <p className="mt-1 truncate text-xs text-ink-faint">
          {g.projectName} · {g.creatorName}
        </p>
        <div className="mt-3 flex items-end justify-between gap-2">
          <span className="text-xs text-ink-faint">{onSale ? t('catalog.askingPrice') : t('catalog.lastPrice')}</span>
          <Price fen={onSale ? g.salePriceFen : g.lastPriceFen} className={`font-semibold ${onSale ? 'text-lg text-brand' : 'text-ink'}`} />
        </div>
        <p className="tabular mt-1 text-xs text-ink-faint">
          #{String(g.serial).padStart(4, '0')} / {g.supply}
        </p>
      </div>
    </Link>
  );
}

/** Creator card: banner, avatar, name, number of releases; links to /creator/{accountId}. */
export function CreatorCard({ creator: c, level = 3 }: { creator: Creator; level?: CardLevel }) {
  const H = level === 2 ? 'h2' : 'h3';
  const { t } = useTranslation();
  return (
    <Link to={`/creator/${encodeURIComponent(c.accountId)}`} prefetch="intent" className="card group block overflow-hidden" data-testid="creator-card" data-account-id={c.accountId}>
      <div className="aspect-[3/1] overflow-hidden bg-night-soft">
        <Thumb src={c.banner} alt="" width={360} height={120} className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]" />
      </div>
      <div className="flex items-center gap-3 px-4 pb-4">
        <Thumb src={c.avatar} alt={c.name} width={56} height={56} className="-mt-6 size-14 shrink-0 rounded-full border-4 border-surface bg-canvas" />
        <div className="min-w-0 pt-2">
          <div className="flex items-center gap-1.5">
            <H className="truncate text-[15px] text-ink">{c.name}</H>
            {c.verified && <VerifiedMark />}
          </div>
          <p className="text-xs text-ink-faint">{t('catalog.releaseCount', { count: c.projectCount })}</p>
        </div>
      </div>
    </Link>
  );
}
