import { useEffect, useRef, useState } from 'react';
import { redirect, useRevalidator } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/projects.dropping';
import { Breadcrumb } from '../components/ui/breadcrumb.tsx';
import { formatCnDateTime } from '../components/ui/cn-time.ts';
import { htmlToText } from '../components/ui/html-text.ts';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Price } from '../components/ui/price.tsx';
import { Thumb } from '../components/ui/thumb.tsx';
import { optional, pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { getProject } from '../features/catalog/api/get-project.ts';
import { getProjectSale } from '../features/catalog/api/get-project-sale.ts';
import { countdownTarget, liveStatus } from '../features/catalog/countdown.ts';
import { Countdown } from '../components/countdown/countdown.tsx';
import { SaleProgress } from '../components/ui/sale-progress.tsx';
import { StatusBadge } from '../features/catalog/components/cards.tsx';
import { useClock } from '../components/countdown/use-clock.ts';
import { api } from '../lib/api.ts';
import { DropBuyPanel } from '../features/drops/components/drop-buy-panel.tsx';
import { officialMint } from '../features/drops/api/phases.ts';
import { PhasedSale } from '../features/drops/components/phased-sale.tsx';
import { RemindButton } from '../features/messages/components/remind-button.tsx';

/** While on sale (and the page is visible) the live stock is refreshed this often. */
const REFRESH_MS = 3000;

/**
 * Release dropping page (/projects/dropping/:id): the countdown 天时分秒 to the sale start (server
 * time), the live stock, and the buy box (docs/drops.md): quantity within the buyer's limit, a buy
 * button that opens exactly at the start without a reload → createOrder → /object-buy with the
 * reserved order → /pay. No id → /projects.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!params.id) throw redirect('/projects');
  const call = serverApi(request);
  const [project, sale, mint] = await Promise.all([getProject(call, params.id), getProjectSale(call, params.id), officialMint(call, params.id)]);
  const p = required(project);
  const s = optional(sale);
  const live = s ? { status: s.status, sold: s.sold, remaining: s.remaining, saleStartAt: s.saleStartAt, saleEndAt: s.saleEndAt } : {};
  // Sale phases / whitelist / lottery of the release (docs/drops.md "Sale phases"); none for a plain drop.
  const phased = optional(mint)?.list[0] ?? null;
  return { now: s?.serverTime ?? p.serverTime, origin: pageOrigin(request), project: { ...p, ...live }, phased: phased && phased.phases.length ? phased : null };
}

export default function Dropping({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useClock({ serverTime: d.now });
  // The live stock, polled while on sale (getProjectSale), over the loader's numbers.
  const [live, setLive] = useState<{ sold: number; remaining: number; status: typeof d.project.status } | null>(null);
  const p = live ? { ...d.project, ...live } : d.project;
  const status = liveStatus(p, now);
  const target = countdownTarget(p, now);
  const revalidator = useRevalidator();

  // The moment the sale starts (or ends), fetch the server's state once.
  const lastStatus = useRef(status);
  useEffect(() => {
    if (lastStatus.current !== status) {
      lastStatus.current = status;
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }
  }, [status, revalidator]);

  // While on sale, keep the stock fresh.
  useEffect(() => {
    setLive(null);
  }, [d.project]);
  useEffect(() => {
    if (status !== 'on_sale') return;
    let alive = true;
    const id = window.setInterval(async () => {
      if (document.visibilityState !== 'visible') return;
      const r = await getProjectSale(api, String(d.project.id));
      if (alive && r.ok && r.data) setLive({ sold: r.data.sold, remaining: r.data.remaining, status: r.data.status });
    }, REFRESH_MS);
    return () => {
      alive = false;
      window.clearInterval(id);
    };
  }, [status, d.project.id]);

  return (
    <div className="page-width py-8" data-testid="dropping-page" data-id={p.id} data-status={status}>
      <PageMeta title={t('catalog.droppingTitle', { name: p.name })} description={htmlToText(p.descriptionHtml, 120)} image={p.cover} origin={d.origin} />
      <Breadcrumb items={[{ label: t('nav.releases'), to: '/projects' }, { label: p.name, to: `/projects/detail/${p.id}` }, { label: t('pages.projectDropping.title') }]} />
      <div className="card grid overflow-hidden md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="bg-night-soft">
          <Thumb src={p.cover} alt={p.name} width={480} height={480} eager className="aspect-square w-full object-cover" />
        </div>
        <div className="flex flex-col p-6 md:p-10">
          <div className="flex items-center gap-2">
            <StatusBadge status={status} phases={p.phases} now={now} />
            <span className="text-sm text-ink-faint">{p.creator.name}</span>
          </div>
          <h1 className="mt-3 text-3xl text-ink" data-testid="dropping-name">
            {p.name}
          </h1>
          <div className="mt-4 flex items-baseline gap-3">
            <span className="text-sm text-ink-faint">{t('catalog.issuePrice')}</span>
            <Price fen={p.priceFen} className="text-3xl font-bold text-brand" testId="dropping-price" />
          </div>

          <div className="mt-8 rounded-card bg-canvas p-5" data-testid="dropping-countdown" data-kind={target?.kind ?? 'none'}>
            {target ? (
              <>
                <p className="mb-3 text-sm text-ink-soft">{t(target.kind === 'start' ? 'catalog.startsIn' : 'catalog.endsIn')}</p>
                <Countdown ms={target.at - now} variant="tiles" />
                <p className="tabular mt-3 text-xs text-ink-faint">
                  {t(target.kind === 'start' ? 'catalog.startsAt' : 'catalog.endsAt', { time: formatCnDateTime(target.at) })}
                </p>
              </>
            ) : (
              <p className="text-base text-ink-soft">{t(`catalog.status.${status}`)}</p>
            )}
          </div>
          {status === 'upcoming' && <RemindButton projectId={p.id} />}

          <div className="mt-6">
            <SaleProgress sold={p.sold} supply={p.supply} remaining={p.remaining} />
          </div>

          {status === 'ended' ? (
            <span className="btn mt-8 h-12 cursor-not-allowed bg-canvas text-base text-ink-faint" aria-disabled="true" data-testid="buy-entry-disabled">
              {t('catalog.status.ended')}
            </span>
          ) : d.phased ? (
            <PhasedSale release={d.phased} now={now} countdown={(ms) => <Countdown ms={ms} variant="tiles" />} claimHere={false} onPhaseChange={() => revalidator.state === 'idle' && void revalidator.revalidate()} />
          ) : (
            <DropBuyPanel projectId={p.id} open={status === 'on_sale'} soldOut={status === 'sold_out'} />
          )}
          <p className="mt-4 text-xs leading-5 text-ink-faint">{t('catalog.buyRules')}</p>
        </div>
      </div>
    </div>
  );
}
