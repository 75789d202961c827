import { useCallback } from 'react';
import { data, Link, redirect, useRevalidator } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/projects.mint';
import { Breadcrumb } from '../components/ui/breadcrumb.tsx';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Price } from '../components/ui/price.tsx';
import { Thumb } from '../components/ui/thumb.tsx';
import { pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { Countdown } from '../components/countdown/countdown.tsx';
import { SaleProgress } from '../components/ui/sale-progress.tsx';
import { useClock } from '../components/countdown/use-clock.ts';
import { officialMint } from '../features/drops/api/phases.ts';
import { PhasedSale } from '../features/drops/components/phased-sale.tsx';

/**
 * Project mint page (/projects/mint/:id, ; docs/drops.md "Sale phases"): the release's
 * phases with countdowns 天时分秒 by server time, my whitelist standing and quota, the free-claim
 * button in a claim phase, the buy box in a priority or public phase, the lottery box. Data: GET
 * /official/mint/?projectId= (loader) and mintinfo (logged in). No id → /mint.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!params.id) throw redirect('/mint');
  const r = required(await officialMint(serverApi(request), params.id));
  const release = r.list[0];
  if (!release) throw data(null, { status: 404 });
  return { now: r.serverTime, origin: pageOrigin(request), release };
}

export default function ProjectMint({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useClock({ serverTime: d.now });
  const r = d.release;
  const revalidator = useRevalidator();
  const onPhaseChange = useCallback(() => {
    if (revalidator.state === 'idle') void revalidator.revalidate();
  }, [revalidator]);
  return (
    <div className="page-width py-8" data-testid="mint-page" data-id={r.projectId}>
      <PageMeta title={t('phases.mintPageTitle', { name: r.name })} description={t('pages.projectMint.description')} image={r.cover} origin={d.origin} />
      <Breadcrumb items={[{ label: t('pages.mint.title'), to: '/mint' }, { label: r.name, to: `/projects/detail/${r.projectId}` }, { label: t('pages.projectMint.title') }]} />
      <div className="card grid overflow-hidden md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="bg-night-soft">
          <Thumb src={r.cover} alt={r.name} width={480} height={480} eager className="aspect-square w-full object-cover" />
        </div>
        <div className="flex flex-col p-6 md:p-10">
          <span className="text-sm text-ink-faint">{r.creatorName}</span>
          <h1 className="mt-2 text-3xl text-ink" data-testid="mint-name">
            {r.name}
          </h1>
          <div className="mt-4 flex items-baseline gap-3">
            <span className="text-sm text-ink-faint">{t('catalog.issuePrice')}</span>
            <Price fen={r.priceFen} className="text-3xl font-bold text-brand" />
          </div>
          <div className="mt-6">
            <SaleProgress sold={r.minted} supply={r.supply} remaining={r.remaining} />
          </div>
          {r.phases.length ? (
            <PhasedSale release={r} now={now} countdown={(ms) => <Countdown ms={ms} variant="tiles" />} claimHere onPhaseChange={onPhaseChange} />
          ) : (
            <div className="mt-6 rounded-card bg-canvas p-5 text-sm text-ink-soft" data-testid="mint-no-phases">
              {t('phases.noPhases')}{' '}
              <Link to={`/projects/dropping/${r.projectId}`} className="text-brand hover:underline">
                {t('catalog.goDropping')}
              </Link>
            </div>
          )}
          <p className="mt-4 text-xs leading-5 text-ink-faint">{t('phases.rules')}</p>
        </div>
      </div>
    </div>
  );
}
