import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Price } from '../../../components/ui/price.tsx';
import type { PhaseView } from '../api/types.ts';
import { livePhaseState } from '../phases.ts';

const STATE_STYLE: Record<PhaseView['state'], string> = {
  active: 'bg-brand text-white',
  upcoming: 'bg-canvas text-ink-soft',
  pending: 'bg-canvas text-ink-faint',
  ended: 'bg-canvas text-ink-faint line-through decoration-transparent',
};

/**
 * A release's sale phases in order (docs/drops.md "Sale phases"): kind, window by server time (a
 * rights phase "after the draw, N minutes"), price ("免费" for the claim) and its state, moved on
 * with the page's server clock.
 */
export function PhaseTimeline({ phases, now, rightsMinutes }: { phases: PhaseView[]; now: number; rightsMinutes?: number | null }) {
  const { t } = useTranslation();
  if (!phases.length) return null;
  return (
    <ol className="space-y-2" data-testid="phase-timeline" aria-label={t('phases.title')}>
      {phases.map((p) => {
        const state = livePhaseState(p, now);
        const window =
          p.startAt === null
            ? p.kind === 'lottery_rights'
              ? t('phases.afterDraw', { minutes: rightsMinutes ?? 0 })
              : t('phases.afterRights')
            : p.endAt === null
              ? t('phases.openEnded', { start: formatCnDateTime(p.startAt, false) })
              : t('phases.window', { start: formatCnDateTime(p.startAt, false), end: formatCnDateTime(p.endAt, false) });
        return (
          <li
            key={p.seq}
            className={`flex flex-wrap items-center gap-x-4 gap-y-1 rounded-control border px-4 py-3 ${state === 'active' ? 'border-brand bg-brand/5' : 'border-line'}`}
            data-testid="phase"
            data-kind={p.kind}
            data-state={state}
          >
            <span className={`rounded-full px-2 py-0.5 text-xs ${STATE_STYLE[state]}`}>{t(`phases.state.${state}`)}</span>
            <span className="font-medium text-ink">{t(`phases.kinds.${p.kind}`)}</span>
            <span className="tabular text-sm text-ink-soft">{window}</span>
            <span className="ml-auto text-sm">
              {p.kind === 'lottery_signup' ? null : p.priceFen === 0 ? <span className="text-success">{t('phases.free')}</span> : <Price fen={p.priceFen} className="text-ink" />}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
