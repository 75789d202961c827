import { Link } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/mint';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { Price } from '../components/ui/price.tsx';
import { Thumb } from '../components/ui/thumb.tsx';
import { pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { Countdown } from '../components/countdown/countdown.tsx';
import { useClock } from '../components/countdown/use-clock.ts';
import { officialMint } from '../features/drops/api/phases.ts';
import { livePhase, phaseTarget } from '../features/drops/phases.ts';

/**
 * Mint (/mint): the releases with sale phases that are not over — whitelist priority
 * buys, free claims, lotteries — with the phase open now and a countdown 天时分秒 by server time to
 * its end or to the next phase. Each opens its mint page /projects/mint/:id. Data: GET /official/mint/.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const r = required(await officialMint(serverApi(request)));
  return { now: r.serverTime, origin: pageOrigin(request), list: r.list };
}

export default function Mint({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const now = useClock({ serverTime: d.now });
  return (
    <div className="page-width py-8" data-testid="mint-list-page">
      <PageMeta title={t('pages.mint.title')} description={t('pages.mint.description')} origin={d.origin} />
      <h1 className="text-2xl text-ink">{t('pages.mint.title')}</h1>
      <p className="mt-2 text-sm text-ink-soft">{t('pages.mint.description')}</p>
      {d.list.length === 0 ? (
        <p className="card mt-8 p-10 text-center text-ink-soft" data-testid="mint-list-empty">
          {t('phases.list.empty')}
        </p>
      ) : (
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {d.list.map((r) => {
            const cur = livePhase(r.phases, now);
            const target = phaseTarget(r.phases, now);
            return (
              <li key={r.projectId} className="card overflow-hidden" data-testid="mint-card" data-id={r.projectId} data-phase={cur?.kind ?? 'none'}>
                <Link to={`/projects/mint/${r.projectId}`} className="block">
                  <Thumb src={r.cover} alt={r.name} width={360} height={360} className="aspect-square w-full object-cover" />
                  <div className="space-y-2 p-4">
                    <p className="truncate text-base font-medium text-ink">{r.name}</p>
                    <p className="text-sm text-ink-soft">{cur ? t('phases.currentIs', { phase: t(`phases.kinds.${cur.kind}`) }) : t('phases.none')}</p>
                    {target && (
                      <p className="text-xs text-ink-faint">
                        {target.kind === 'end' ? t('phases.endsIn') : t('phases.startsIn', { phase: t(`phases.kinds.${target.phase.kind}`) })} <Countdown ms={target.at - now} />
                      </p>
                    )}
                    <div className="flex items-center justify-between text-sm">
                      <Price fen={r.priceFen} className="font-semibold text-brand" />
                      <span className="text-ink-faint">{t('catalog.remaining', { count: r.remaining })}</span>
                    </div>
                  </div>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
