import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { useUserStore } from '../../../stores/user.ts';
import type { MintInfo, MintRelease } from '../api/types.ts';
import { useMintInfo } from '../hooks/use-mint-info.ts';
import { livePhase, phaseKey, phaseTarget, sellsInPhase } from '../phases.ts';
import { ClaimPanel } from './claim-panel.tsx';
import { DropBuyPanel } from './drop-buy-panel.tsx';
import { LotteryPanel } from './lottery-panel.tsx';
import { PhaseTimeline } from './phase-timeline.tsx';
import { WhitelistStatusLine } from './whitelist-status.tsx';

/**
 * The sale of a release with phases (docs/drops.md "Sale phases"), on the dropping page and the mint
 * page: the phase open now with its countdown 天时分秒 (server time), the timeline, my whitelist
 * standing, the lottery box, and what I can do in this phase — buy (whitelist / winners / public:
 * the drop buy box), claim (the mint page claims here; the dropping page links to it), or nothing
 * yet. `countdown` renders the page's countdown; `onPhaseChange` runs when a phase opens or closes.
 */
export function PhasedSale({
  release,
  now,
  countdown,
  claimHere,
  onPhaseChange,
}: {
  release: MintRelease;
  now: number;
  countdown: (ms: number) => ReactNode;
  claimHere: boolean;
  onPhaseChange?: () => void;
}) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const key = phaseKey(release.phases, now);
  const { info, reload } = useMintInfo(release.projectId, key);
  const phases = info?.phases ?? release.phases;
  const lottery = info?.lottery ?? release.lottery;
  const remaining = info?.remaining ?? release.remaining;
  const cur = livePhase(phases, now);
  const target = phaseTarget(phases, now);

  const lastKey = useRef(key);
  useEffect(() => {
    if (lastKey.current !== key) {
      lastKey.current = key;
      onPhaseChange?.();
    }
  }, [key, onPhaseChange]);

  const hasWhitelist = phases.some((p) => p.kind === 'whitelist' || p.kind === 'claim');
  return (
    <div data-testid="phased-sale" data-phase={cur?.kind ?? 'none'}>
      <section className="mt-6 rounded-card bg-canvas p-5" data-testid="phase-current" data-kind={cur?.kind ?? 'none'}>
        <p className="text-base font-medium text-ink">{cur ? t('phases.currentIs', { phase: t(`phases.kinds.${cur.kind}`) }) : t('phases.none')}</p>
        {target && (
          <div className="mt-3" data-testid="phase-countdown" data-kind={target.kind}>
            <p className="mb-2 text-sm text-ink-soft">{target.kind === 'end' ? t('phases.endsIn') : t('phases.startsIn', { phase: t(`phases.kinds.${target.phase.kind}`) })}</p>
            {countdown(target.at - now)}
            <p className="tabular mt-2 text-xs text-ink-faint">{formatCnDateTime(target.at)}</p>
          </div>
        )}
      </section>
      <div className="mt-4">
        <PhaseTimeline phases={phases} now={now} rightsMinutes={lottery?.rightsMinutes ?? null} />
      </div>
      {token && info && hasWhitelist && (
        <div className="mt-4">
          <WhitelistStatusLine info={info} />
        </div>
      )}
      {lottery && <LotteryPanel projectId={release.projectId} lottery={lottery} mine={info?.lotteryMine ?? null} phases={phases} now={now} countdown={countdown} onChanged={() => void reload()} />}
      <Actions info={info} kind={cur?.kind ?? null} projectId={release.projectId} soldOut={remaining <= 0} claimHere={claimHere} />
    </div>
  );
}

function Actions({ info, kind, projectId, soldOut, claimHere }: { info: MintInfo | null; kind: MintRelease['phases'][number]['kind'] | null; projectId: number; soldOut: boolean; claimHere: boolean }) {
  const { t } = useTranslation();
  if (kind === 'claim') {
    return claimHere ? (
      <ClaimPanel projectId={projectId} info={info} open={!soldOut} />
    ) : (
      <Link to={`/projects/mint/${projectId}`} className="btn-primary mt-6 flex h-12 w-full items-center justify-center text-base" data-testid="go-claim">
        {t('phases.claim.goClaim')}
      </Link>
    );
  }
  if (kind && sellsInPhase(kind)) {
    const blocked = !info ? null : kind === 'whitelist' && !info.my.whitelisted ? t('phases.buy.whitelistOnly') : kind === 'lottery_rights' && info.my.quota === 0 ? t('phases.buy.winnersOnly') : null;
    return <DropBuyPanel projectId={projectId} open soldOut={soldOut} blocked={blocked} />;
  }
  if (kind === 'lottery_signup') return null;
  return (
    <span className="btn mt-6 flex h-12 w-full cursor-not-allowed items-center justify-center bg-canvas text-base text-ink-faint" aria-disabled="true" data-testid="phase-closed">
      {soldOut ? t('catalog.status.sold_out') : t('phases.buy.closed')}
    </span>
  );
}
