import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatFen } from '@cfx/protocol/money.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { Checkbox } from '../../../components/ui/fields.tsx';
import { applyCancellation } from '../api/apply-cancellation.ts';
import { getCancelStatus } from '../api/get-cancel-status.ts';
import { revokeCancellation } from '../api/revoke-cancellation.ts';
import { sendSecurityCode } from '../../../lib/send-security-code.ts';
import type { CancelBlocker } from '../api/types.ts';
import { daysLeft, validateCancel } from '../validate.ts';
import { SmsCodeField } from '../../../components/sms-code/sms-code-button.tsx';
import { DialogShell } from '../../../components/ui/dialog-shell.tsx';

function BlockerList({ blockers }: { blockers: CancelBlocker[] }) {
  const { t } = useTranslation();
  return (
    <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-danger" data-testid="cancel-blockers">
      {blockers.map((b) => (
        <li key={b.kind} data-kind={b.kind}>
          {t(`privacy.cancel.blockers.${b.kind}`, { count: b.count, amount: formatFen(b.amountFen ?? 0) })}
        </li>
      ))}
    </ul>
  );
}

function Notice({ days }: { days: number }) {
  const { t } = useTranslation();
  return (
    <ul className="list-disc space-y-1.5 pl-5 text-sm leading-6 text-ink-soft" data-testid="cancel-notice">
      <li>{t('privacy.cancel.notice1', { days })}</li>
      <li>{t('privacy.cancel.notice2')}</li>
      <li className="text-ink">{t('privacy.cancel.notice3')}</li>
      <li>{t('privacy.cancel.notice4')}</li>
    </ul>
  );
}

/**
 * Account cancellation (注销): the notice, the checklist of what still blocks it (goods on sale,
 * not yet minted, unfinished orders, active bids, a balance, a creator account), the cooling-off
 * state with a withdraw button, and the apply dialog (confirm the notice + security code).
 */
export function CancelSection() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['cancel-status', token], queryFn: getCancelStatus, enabled: token !== '' });
  const [open, setOpen] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const refresh = () => Promise.all([q.refetch(), client.invalidateQueries({ queryKey: ['security-events'] })]);

  async function apply(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const problem = validateCancel({ confirmed, code });
    if (problem) return void toast.warning(t(`security.validation.${problem}`));
    setBusy(true);
    const r = await applyCancellation(code);
    setBusy(false);
    if (r.ok) toast.success(r.message);
    if (r.ok || (r.data && 'blockers' in r.data)) {
      setOpen(false);
      setCode('');
      setConfirmed(false);
      await refresh();
    }
  }

  async function revoke() {
    setBusy(true);
    const r = await revokeCancellation();
    setBusy(false);
    if (r.ok) toast.success(r.message);
    await refresh();
  }

  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <p className="flex items-center gap-3 py-4 text-sm text-ink-faint" data-testid="cancel-section" data-status="error">
        {t('common.loadFailed')}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  const s = q.data;
  const cooling = s.request?.status === 'cooling' ? s.request : null;
  const status = cooling ? 'cooling' : s.blockers.length ? 'blocked' : 'ready';
  return (
    <div data-testid="cancel-section" data-status={status}>
      <p className="mb-3 text-sm text-ink-soft">{t('privacy.cancel.intro')}</p>
      <Notice days={s.coolingDays} />
      {cooling ? (
        <div className="mt-4 rounded-control bg-warning/10 p-4" data-testid="cancel-cooling">
          <p className="text-sm text-ink">
            {t('privacy.cancel.cooling', { date: formatCnDateTime(cooling.effectiveAt, false), count: daysLeft(cooling.effectiveAt, s.serverTime) })}
          </p>
          <button type="button" className="btn-ghost mt-3" disabled={busy} onClick={() => void revoke()} data-testid="cancel-revoke">
            {busy && <Spinner />}
            {t('privacy.cancel.revoke')}
          </button>
        </div>
      ) : (
        <>
          {s.request?.status === 'blocked' && (
            <p className="mt-4 rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" data-testid="cancel-last-blocked">
              {t('privacy.cancel.blocked')}
            </p>
          )}
          <h3 className="mb-1 mt-5 text-sm font-medium text-ink">{t('privacy.cancel.checklistTitle')}</h3>
          {s.blockers.length ? (
            <>
              <p className="text-sm text-ink-soft">{t('privacy.cancel.checklistBlocked')}</p>
              <BlockerList blockers={s.blockers} />
            </>
          ) : (
            <p className="text-sm text-success" data-testid="cancel-checklist-ok">
              ✓ {t('privacy.cancel.checklistOk')}
            </p>
          )}
          <button
            type="button"
            className="btn-ghost mt-4 border-danger/40 text-danger hover:border-danger hover:text-danger"
            disabled={s.blockers.length > 0}
            onClick={() => setOpen(true)}
            data-testid="cancel-apply"
          >
            {t('privacy.cancel.apply')}
          </button>
        </>
      )}
      <DialogShell
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) {
            setCode('');
            setConfirmed(false);
          }
        }}
        title={t('privacy.cancel.applyTitle')}
        testId="cancel-dialog"
        busy={busy}
      >
        <form onSubmit={(e) => void apply(e)} className="space-y-4" noValidate>
          <Notice days={s.coolingDays} />
          <Checkbox checked={confirmed} onChange={setConfirmed} testId="cancel-confirm">
            {t('privacy.cancel.confirmLabel')}
          </Checkbox>
          <SmsCodeField code={code} onCode={setCode} send={sendSecurityCode} countdownKey="security" testIdPrefix="cancel" />
          <button type="submit" className="btn-primary h-11 w-full bg-danger text-base hover:bg-danger/90" disabled={busy} data-testid="cancel-submit">
            {busy && <Spinner />}
            {busy ? t('security.submitting') : t('privacy.cancel.submit')}
          </button>
        </form>
      </DialogShell>
    </div>
  );
}
