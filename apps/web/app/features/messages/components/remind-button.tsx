import { useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAuthOverlay } from '../../../stores/auth-overlay.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { getRemind, setRemind } from '../api/remind.ts';
import type { RemindData } from '../api/types.ts';

/**
 * "Remind me" for a release that has not started: subscribes to a message (and an SMS if switched
 * on in the message settings) DROP_REMIND_MINUTES before the sale start; a second click cancels.
 * Logged out, it opens the login overlay.
 */
export function RemindButton({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const openOverlay = useAuthOverlay((s) => s.openOverlay);
  const [state, setState] = useState<RemindData | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setState(null);
    if (!hydrated || !token) return;
    let alive = true;
    void getRemind(projectId).then((r) => {
      if (alive && r.ok) setState(r.data);
    });
    return () => {
      alive = false;
    };
  }, [hydrated, token, projectId]);

  async function toggle() {
    if (!token) {
      openOverlay('login');
      return;
    }
    setBusy(true);
    const r = await setRemind(projectId, !state?.subscribed);
    setBusy(false);
    if (!r.ok) return;
    setState(r.data);
    toast.success(r.message);
  }

  const on = !!state?.subscribed;
  const label = state?.notified ? t('messageCenter.remind.sent') : on ? t('messageCenter.remind.on') : t('messageCenter.remind.off');
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3" data-testid="remind-box">
      <button
        type="button"
        onClick={() => void toggle()}
        disabled={busy || !!state?.notified}
        aria-pressed={on}
        data-testid="remind-button"
        data-subscribed={on ? '1' : '0'}
        className={`btn h-10 px-5 text-sm ${on ? 'border border-brand bg-brand-soft text-brand' : 'btn-ghost'}`}
      >
        {busy && <Spinner />}
        <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden>
          <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16Z" strokeLinejoin="round" />
          <path d="M10 20a2 2 0 0 0 4 0" strokeLinecap="round" />
        </svg>
        {label}
      </button>
      {on && state?.remindAt ? (
        <span className="tabular text-xs text-ink-faint" data-testid="remind-at">
          {t('messageCenter.remind.at', { time: formatCnDateTime(state.remindAt, false) })}
        </span>
      ) : null}
    </div>
  );
}
