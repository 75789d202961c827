import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { listSecurityEvents } from '../api/list-security-events.ts';
import { listSessions } from '../api/list-sessions.ts';
import { revokeSessions } from '../api/revoke-sessions.ts';

/** Signed-in devices: the current one first and marked; sign out one other device or all of them. */
export function SessionsSection() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['sessions', token], queryFn: listSessions, enabled: token !== '' });
  const [busy, setBusy] = useState<string | null>(null);

  async function revoke(target: { id: string } | { others: true }) {
    setBusy('id' in target ? target.id : 'others');
    const r = await revokeSessions(target);
    setBusy(null);
    if (!r.ok) return;
    toast.success(r.message);
    await Promise.all([q.refetch(), client.invalidateQueries({ queryKey: ['security-events'] })]);
  }

  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <p className="flex items-center gap-3 py-4 text-sm text-ink-faint" data-testid="sessions-section" data-status="error">
        {t('common.loadFailed')}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  const others = q.data.filter((s) => !s.current).length;
  return (
    <div data-testid="sessions-section" data-status="ready">
      <p className="mb-3 text-xs text-ink-faint">{t('security.sessions.hint')}</p>
      <ul className="divide-y divide-line">
        {q.data.map((s) => (
          <li key={s.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center" data-testid="session-item" data-current={s.current ? '1' : '0'} data-id={s.id}>
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2 text-sm text-ink">
                <span data-testid="session-device">{s.device || t('security.sessions.unknownDevice')}</span>
                {s.current && <span className="rounded-full bg-brand-soft px-2 py-0.5 text-xs text-brand">{t('security.sessions.current')}</span>}
              </p>
              <p className="tabular mt-1 text-xs text-ink-faint">
                {s.ip && (
                  <span className="mr-3">
                    {t('security.sessions.ip')} {s.ip}
                  </span>
                )}
                <span className="mr-3">
                  {t('security.sessions.signedInAt')} {formatCnDateTime(s.createdAt, false)}
                </span>
                <span>
                  {t('security.sessions.lastSeen')} {formatCnDateTime(s.lastSeenAt, false)}
                </span>
              </p>
            </div>
            {!s.current && (
              <button
                type="button"
                className="btn-ghost h-8 shrink-0 px-3"
                disabled={busy !== null}
                onClick={() => void revoke({ id: s.id })}
                data-testid="session-revoke"
              >
                {busy === s.id && <Spinner />}
                {t('security.sessions.revoke')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <button type="button" className="btn-ghost mt-3" disabled={busy !== null} onClick={() => void revoke({ others: true })} data-testid="sessions-revoke-others">
          {busy === 'others' && <Spinner />}
          {t('security.sessions.revokeOthers')}
        </button>
      ) : (
        <p className="mt-2 text-xs text-ink-faint" data-testid="sessions-only-this">
          {t('security.sessions.onlyThis')}
        </p>
      )}
    </div>
  );
}

/** The latest entries of the security log (password / phone changed, devices signed out, …). */
export function SecurityEvents() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['security-events', token], queryFn: listSecurityEvents, enabled: token !== '' });
  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) return <p className="py-4 text-sm text-ink-faint">{t('common.loadFailed')}</p>;
  if (!q.data.length) {
    return (
      <p className="py-3 text-sm text-ink-faint" data-testid="security-events" data-count="0">
        {t('security.events.empty')}
      </p>
    );
  }
  return (
    <ul className="divide-y divide-line text-sm" data-testid="security-events" data-count={q.data.length}>
      {q.data.slice(0, 10).map((e, i) => (
        <li key={`${e.at}-${i}`} className="flex flex-col gap-1 py-2.5 sm:flex-row sm:items-center sm:gap-4" data-testid="security-event" data-kind={e.kind}>
          <span className="flex-1 text-ink">{t(`security.events.kinds.${e.kind}`)}</span>
          <span className="tabular text-xs text-ink-faint">
            {[e.device, e.ip, formatCnDateTime(e.at, false)].filter(Boolean).join(' · ')}
          </span>
        </li>
      ))}
    </ul>
  );
}
