import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { getInviteCode } from '../api/get-invite-code.ts';

/** The user's invite code and the link `<origin>/?inviteCode=XXXX`. */
export function InvitePanel() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['invite-code', token], queryFn: getInviteCode, enabled: token !== '' });
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);

  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError)
    return (
      <p className="py-6 text-center text-sm text-ink-faint">
        {t('common.loadFailed')}{' '}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );

  const link = `${origin}/?inviteCode=${encodeURIComponent(q.data.inviteCode)}`;
  const copy = async (text: string) => ((await copyText(text)) ? toast.success(t('common.copied')) : toast.warning(t('common.copyFailed')));

  return (
    <div className="space-y-6" data-testid="invite-panel">
      <p className="text-ink-soft">{t('invite.intro')}</p>
      <div>
        <p className="mb-1.5 text-sm text-ink-soft">{t('invite.code')}</p>
        <div className="flex items-center gap-3">
          <span className="tabular rounded-control bg-brand-soft px-4 py-2 text-2xl font-semibold tracking-[0.3em] text-brand" data-testid="invite-code">
            {q.data.inviteCode}
          </span>
          <button type="button" className="btn-ghost" onClick={() => void copy(q.data.inviteCode)} data-testid="invite-copy-code">
            {t('invite.copyCode')}
          </button>
        </div>
      </div>
      <div>
        <p className="mb-1.5 text-sm text-ink-soft">{t('invite.link')}</p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input readOnly className="field-input" value={link} data-testid="invite-link" onFocus={(e) => e.target.select()} />
          <button type="button" className="btn-primary h-11 shrink-0" onClick={() => void copy(link)} data-testid="invite-copy-link">
            {t('invite.copyLink')}
          </button>
        </div>
      </div>
      <p className="text-sm text-ink-faint" data-testid="invite-count">
        {t('invite.count', { count: q.data.invitedCount })}
      </p>
    </div>
  );
}
