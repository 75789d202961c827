import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { nftmint } from '../api/phases.ts';
import type { MintInfo } from '../api/types.ts';
import { useAuthOverlay, useWalletStore } from '../../../stores/app-stores.ts';

/**
 * The free claim of a whitelisted identity (nftmint, docs/drops.md "Free claim"): a quantity within
 * what is left of the whitelist quota, and the claim button; a claim goes straight to minting, so
 * it opens the order's status page (藏品铸造中 → 购买完成). Its failures are shown here (nftmint skips
 * the default message).
 */
export function ClaimPanel({ projectId, info, open }: { projectId: number; info: MintInfo | null; open: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const isRealname = useUserStore((s) => s.isRealname);
  const walletAddress = useUserStore((s) => s.walletAddress);
  const [count, setCount] = useState(1);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; status: string } | null>(null);
  const max = info ? Math.max(0, Math.min(info.my.remaining, info.my.maxPerOrder, info.remaining)) : 1;
  useEffect(() => {
    if (count > Math.max(1, max)) setCount(Math.max(1, max));
  }, [max, count]);

  if (!hydrated) return <div className="mt-6 h-12 animate-pulse rounded-control bg-canvas" aria-hidden />;
  if (!token) {
    return (
      <button type="button" className="btn-primary mt-6 h-12 w-full text-base" onClick={() => useAuthOverlay.getState().openOverlay('login')} data-testid="claim-login">
        {t('phases.claim.loginToClaim')}
      </button>
    );
  }
  const claim = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    const r = await nftmint({ projectId, count });
    if (r.ok && r.data) {
      void navigate(`/personal-center/conmponents/pamentSuccess?orderNo=${encodeURIComponent(r.data.orderNo)}`);
      return;
    }
    setBusy(false);
    setFailure({ message: r.networkError ? t('orders.network') : r.message || t('common.requestFailed'), status: r.status });
  };
  const gate = isRealname === '0' ? 'realname' : isRealname === '1' && !walletAddress ? 'wallet' : null;
  const whitelisted = info?.my.whitelisted ?? false;
  const canClaim = open && !!info && whitelisted && max >= 1 && !gate && !busy;
  const label = !open ? t('phases.claim.notOpen') : info && !whitelisted ? t('phases.claim.notWhitelisted') : info && info.my.remaining <= 0 ? t('phases.claim.usedUp') : t('phases.claim.button');
  return (
    <div className="mt-6 space-y-4" data-testid="claim-panel" data-state={canClaim ? 'ready' : 'closed'}>
      {gate === 'realname' && (
        <p className="rounded-control bg-warning/10 px-3 py-2 text-sm text-warning" data-testid="claim-gate" data-gate="realname">
          {t('phases.claim.gateRealname')}{' '}
          <Link to="/personal-center/account-settings#realname" className="font-medium text-brand hover:underline">
            {t('market.gate.verifyRealname')}
          </Link>
        </p>
      )}
      {gate === 'wallet' && (
        <p className="rounded-control bg-warning/10 px-3 py-2 text-sm text-warning" data-testid="claim-gate" data-gate="wallet">
          {t('phases.claim.gateWallet')}{' '}
          <button type="button" className="font-medium text-brand hover:underline" onClick={() => useWalletStore.getState().openDialog()}>
            {t('header.linkWallet')}
          </button>
        </p>
      )}
      {whitelisted && max > 1 && (
        <div className="flex items-center gap-4">
          <span className="text-sm text-ink-soft">{t('phases.claim.quantity')}</span>
          <div className="inline-flex items-center rounded-control border border-line" role="group" aria-label={t('phases.claim.quantity')}>
            <button type="button" className="h-10 w-10 text-lg text-ink disabled:text-ink-faint" disabled={count <= 1} onClick={() => setCount((c) => Math.max(1, c - 1))} aria-label={t('drops.less')}>
              −
            </button>
            <span className="tabular w-10 text-center text-base text-ink" data-testid="claim-count" aria-live="polite">
              {count}
            </span>
            <button type="button" className="h-10 w-10 text-lg text-ink disabled:text-ink-faint" disabled={count >= max} onClick={() => setCount((c) => Math.min(max, c + 1))} aria-label={t('drops.more')}>
              +
            </button>
          </div>
        </div>
      )}
      <button type="button" className="btn-primary h-12 w-full text-base disabled:cursor-not-allowed disabled:opacity-60" disabled={!canClaim} onClick={() => void claim()} data-testid="claim-button">
        {busy ? <Spinner /> : null}
        {label}
      </button>
      {failure && (
        <p className="rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="claim-error" data-code={failure.status}>
          {failure.message}
        </p>
      )}
    </div>
  );
}
