import { useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { toast } from '../../../stores/toast.ts';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { inviteLink } from '../links.ts';

/** My invite code and link `<origin>/?inviteCode=XXXXXX` with its QR code and copy buttons. */
export function InviteShare({ code, invitedCount, realnameCount }: { code: string; invitedCount: number; realnameCount: number }) {
  const { t } = useTranslation();
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const link = origin ? inviteLink(origin, code) : '';
  const copy = async (text: string) => ((await copyText(text)) ? toast.success(t('common.copied')) : toast.warning(t('common.copyFailed')));

  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_auto]" data-testid="invite-share">
      <div className="min-w-0 space-y-5">
        <p className="text-ink-soft">{t('invite.intro')}</p>
        <div>
          <p className="mb-1.5 text-sm text-ink-soft">{t('invite.code')}</p>
          <div className="flex items-center gap-3">
            <span className="tabular rounded-control bg-brand-soft px-4 py-2 text-2xl font-semibold tracking-[0.3em] text-brand" data-testid="invite-code">
              {code}
            </span>
            <button type="button" className="btn-ghost" onClick={() => void copy(code)} data-testid="invite-copy-code">
              {t('invite.copyCode')}
            </button>
          </div>
        </div>
        <div>
          <p className="mb-1.5 text-sm text-ink-soft">{t('invite.link')}</p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input readOnly className="field-input" value={link} data-testid="invite-link" onFocus={(e) => e.target.select()} />
            <button type="button" className="btn-primary h-11 shrink-0" onClick={() => void copy(link)} disabled={!link} data-testid="invite-copy-link">
              {t('invite.copyLink')}
            </button>
          </div>
        </div>
        <dl className="grid max-w-sm grid-cols-2 gap-3">
          <div className="rounded-control bg-canvas px-4 py-3">
            <dt className="text-xs text-ink-faint">{t('invite.total')}</dt>
            <dd className="tabular mt-1 text-xl font-semibold text-ink" data-testid="invite-count">
              {t('invite.people', { count: invitedCount })}
            </dd>
          </div>
          <div className="rounded-control bg-canvas px-4 py-3">
            <dt className="text-xs text-ink-faint">{t('invite.realnameTotal')}</dt>
            <dd className="tabular mt-1 text-xl font-semibold text-ink" data-testid="invite-realname-count">
              {t('invite.people', { count: realnameCount })}
            </dd>
          </div>
        </dl>
      </div>
      <figure className="flex flex-col items-center self-start rounded-card border border-line p-4">
        {link && <QrCode value={link} size={152} label={t('invite.qrLabel')} />}
        <figcaption className="mt-2 max-w-[168px] text-center text-xs text-ink-faint">{t('invite.qrHint')}</figcaption>
      </figure>
    </div>
  );
}
