import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { enterLottery } from '../api/phases.ts';
import type { LotteryView, MintInfo, PhaseView } from '../api/types.ts';
import { useAuthOverlay, useWalletStore } from '../../../stores/app-stores.ts';
import { livePhaseState } from '../phases.ts';

/**
 * The fair drop's box on the dropping and mint pages (docs/drops.md "Lottery"): the published draw
 * epoch, winners and quota; during sign-up the sign-up button (login, real name and wallet first,
 * like buying) or my entry number; after it "waiting for the draw at epoch E" with the chain's
 * epoch; after the draw won (buy within the rights window: its countdown) or lost, said plainly,
 * and the link to the public proof. `countdown` renders a 天时分秒 countdown (the page's own).
 */
export function LotteryPanel({
  projectId,
  lottery,
  mine,
  phases,
  now,
  countdown,
  onChanged,
}: {
  projectId: number;
  lottery: LotteryView;
  mine: MintInfo['lotteryMine'] | null;
  phases: PhaseView[];
  now: number;
  countdown: (ms: number) => ReactNode;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const isRealname = useUserStore((s) => s.isRealname);
  const walletAddress = useUserStore((s) => s.walletAddress);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [entered, setEntered] = useState<number | null>(null);

  const signup = phases.find((p) => p.kind === 'lottery_signup');
  const rights = phases.find((p) => p.kind === 'lottery_rights');
  const signupState = signup ? livePhaseState(signup, now) : 'ended';
  const drawn = lottery.status === 'drawn';
  const entryNo = mine?.entryNo ?? entered;
  const rightsOpen = rights ? livePhaseState(rights, now) === 'active' : false;

  const enter = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    const r = await enterLottery(projectId);
    setBusy(false);
    if (r.ok) {
      setEntered(r.data.entryNo);
      onChanged();
    } else {
      setFailure(r.networkError ? t('orders.network') : r.message || t('common.requestFailed'));
      onChanged();
    }
  };

  let state: string;
  let body: ReactNode;
  if (drawn) {
    if (!token || !mine?.entered) {
      state = 'not-entered';
      body = <p className="text-sm text-ink-soft">{t('phases.lottery.notEntered')}</p>;
    } else if (mine.won) {
      state = rightsOpen ? 'won' : 'won-over';
      body = (
        <div className="space-y-2">
          <p className="text-base font-medium text-success" data-testid="lottery-won">
            {t('phases.lottery.won', { n: mine.entryNo ?? 0, quota: mine.quota })}
          </p>
          {rightsOpen && rights?.endAt != null ? (
            <div data-testid="lottery-rights-countdown">
              <p className="mb-2 text-sm text-ink-soft">{t('phases.lottery.buyWithin')}</p>
              {countdown(rights.endAt - now)}
              <p className="tabular mt-2 text-xs text-ink-faint">{t('phases.lottery.rightsUntil', { time: formatCnDateTime(rights.endAt) })}</p>
            </div>
          ) : (
            <p className="text-sm text-ink-soft">{t('phases.lottery.rightsOver')}</p>
          )}
        </div>
      );
    } else {
      state = 'lost';
      body = (
        <div className="space-y-1" data-testid="lottery-lost">
          <p className="text-base font-medium text-ink">{t('phases.lottery.lost', { n: mine.entryNo ?? 0 })}</p>
          <p className="text-sm text-ink-soft">{t('phases.lottery.lostHint')}</p>
        </div>
      );
    }
  } else if (signupState === 'upcoming' && signup?.startAt != null) {
    state = 'before-signup';
    body = (
      <div>
        <p className="mb-2 text-sm text-ink-soft">{t('phases.lottery.signupStartsIn')}</p>
        {countdown(signup.startAt - now)}
      </div>
    );
  } else if (signupState === 'active' && lottery.status === 'open') {
    if (entryNo) {
      state = 'entered';
      body = (
        <p className="text-base text-ink" data-testid="lottery-entered" data-entry-no={entryNo}>
          {t('phases.lottery.entered', { n: entryNo })}
        </p>
      );
    } else if (!hydrated) {
      state = 'loading';
      body = <div className="h-12 animate-pulse rounded-control bg-canvas" aria-hidden />;
    } else if (!token) {
      state = 'guest';
      body = (
        <button type="button" className="btn-primary h-12 w-full text-base" onClick={() => useAuthOverlay.getState().openOverlay('login')} data-testid="lottery-login">
          {t('phases.lottery.loginToEnter')}
        </button>
      );
    } else {
      const gate = isRealname === '0' ? 'realname' : isRealname === '1' && !walletAddress ? 'wallet' : null;
      state = 'can-enter';
      body = (
        <div className="space-y-3">
          {gate === 'realname' && (
            <p className="rounded-control bg-warning/10 px-3 py-2 text-sm text-warning" data-testid="lottery-gate" data-gate="realname">
              {t('phases.lottery.gateRealname')}{' '}
              <Link to="/personal-center/account-settings#realname" className="font-medium text-brand hover:underline">
                {t('market.gate.verifyRealname')}
              </Link>
            </p>
          )}
          {gate === 'wallet' && (
            <p className="rounded-control bg-warning/10 px-3 py-2 text-sm text-warning" data-testid="lottery-gate" data-gate="wallet">
              {t('phases.lottery.gateWallet')}{' '}
              <button type="button" className="font-medium text-brand hover:underline" onClick={() => useWalletStore.getState().openDialog()}>
                {t('header.linkWallet')}
              </button>
            </p>
          )}
          <button type="button" className="btn-primary h-12 w-full text-base disabled:cursor-not-allowed disabled:opacity-60" disabled={busy || !!gate} onClick={() => void enter()} data-testid="lottery-enter">
            {busy ? <Spinner /> : null}
            {t('phases.lottery.enter')}
          </button>
          {signup?.endAt != null && (
            <div>
              <p className="mb-2 text-sm text-ink-soft">{t('phases.lottery.signupEndsIn')}</p>
              {countdown(signup.endAt - now)}
            </div>
          )}
        </div>
      );
    }
  } else {
    state = 'waiting';
    body = (
      <div className="space-y-1" data-testid="lottery-waiting">
        {entryNo ? <p className="text-sm text-ink">{t('phases.lottery.entered', { n: entryNo })}</p> : null}
        <p className="text-base text-ink">{t('phases.lottery.waiting', { epoch: lottery.drawEpoch })}</p>
        {lottery.chainEpoch !== null && <p className="tabular text-xs text-ink-faint">{t('phases.lottery.chainAt', { epoch: lottery.chainEpoch })}</p>}
      </div>
    );
  }

  return (
    <section className="mt-6 rounded-card border border-line p-5" data-testid="lottery-panel" data-state={state} data-status={lottery.status}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-ink">{t('phases.lottery.title')}</h2>
        <span className="text-sm text-ink-faint" data-testid="lottery-entries">
          {t('phases.lottery.entries', { count: lottery.entries })}
        </span>
      </div>
      <p className="mt-2 text-sm leading-6 text-ink-soft">{t('phases.lottery.intro', { epoch: lottery.drawEpoch })}</p>
      <p className="mt-1 text-sm text-ink-soft">{t('phases.lottery.terms', { winners: lottery.winners, quota: lottery.winQuota, minutes: lottery.rightsMinutes })}</p>
      <div className="mt-4">{body}</div>
      {failure && (
        <p className="mt-3 rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="lottery-error">
          {failure}
        </p>
      )}
      <Link to={`/projects/lottery/${projectId}`} className="mt-4 inline-block text-sm text-brand hover:underline" data-testid="lottery-proof-link">
        {t('phases.lottery.proof')}
      </Link>
    </section>
  );
}
