/**
 * The odds of a blind-box release on its detail page (docs/drops.md "Blind boxes"): each kind with
 * its exact count and probability, whether the draw is revealed, and the way to the commitment and
 * the proof (/projects/box/:id). Rendered on the server with the page.
 */
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { BoxInfo } from '../../../lib/goods-flow/types.ts';
import { oddsText } from '../odds.ts';

export function BoxOddsSection({ info }: { info: BoxInfo }) {
  const { t } = useTranslation();
  return (
    <section className="card mt-10 px-6 py-6 md:px-10" aria-labelledby="box-odds-title" data-testid="box-odds-section" data-status={info.status}>
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="box-odds-title" className="text-lg text-ink">
          {t('boxes.proof.odds')}
        </h2>
        <Link to={`/projects/box/${info.projectId}`} className="text-sm text-brand hover:underline" data-testid="box-proof-link">
          {info.status === 'revealed' ? t('boxes.section.proofRevealed') : t('boxes.section.proofCommitted')}
        </Link>
      </div>
      <ul className="grid gap-3 sm:grid-cols-3">
        {info.kinds.map((k) => (
          <li key={k.index} className="flex items-center gap-3 rounded-control border border-line p-3" data-testid="box-odds-kind" data-count={k.count}>
            <Thumb src={k.image} alt="" width={48} height={48} className="size-12 shrink-0 rounded bg-night-soft object-cover" />
            <div className="min-w-0 text-sm">
              <p className="truncate text-ink">{k.name}</p>
              <p className="tabular text-xs text-ink-faint">
                {k.rarity} · {k.count}/{info.supply} · {oddsText(k.count, info.supply)}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-3 break-all text-xs text-ink-faint">{t('boxes.section.commitment', { hash: info.commitment, epoch: info.revealEpoch })}</p>
    </section>
  );
}
