import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../stores/toast.ts';
import { Checkbox } from '../../../components/ui/fields.tsx';
import { requestExport } from '../api/request-export.ts';
import { sendSecurityCode } from '../../../lib/send-security-code.ts';
import type { ExportTicket } from '../api/types.ts';
import { validateCode } from '../validate.ts';
import { SmsCodeField } from '../../../components/sms-code/sms-code-button.tsx';

/**
 * Personal-data export (PIPL): creates a download link of a JSON file (valid 15 minutes, one
 * export per 24 hours). Ticking "include my full name and ID number" asks for a security code.
 */
export function ExportSection() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [withId, setWithId] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [ticket, setTicket] = useState<ExportTicket | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (withId) {
      const problem = validateCode(code);
      if (problem) return void toast.warning(t(`security.validation.${problem}`));
    }
    setBusy(true);
    const r = await requestExport(withId ? code : undefined);
    setBusy(false);
    if (!r.ok || !r.data) return;
    toast.success(r.message);
    setTicket(r.data);
    setCode('');
    await client.invalidateQueries({ queryKey: ['security-events'] });
  }

  return (
    <div data-testid="export-section" data-status={ticket ? 'ready' : 'idle'}>
      <p className="mb-4 text-sm leading-6 text-ink-soft">{t('privacy.export.intro')}</p>
      {ticket ? (
        <div className="rounded-control bg-success/10 p-4" data-testid="export-ready">
          <p className="text-sm text-ink">
            {t('privacy.export.ready')}
            {ticket.includesIdNumber && <span className="ml-2 rounded-full bg-surface px-2 py-0.5 text-xs text-ink-soft">{t('privacy.export.withId')}</span>}
          </p>
          <a href={ticket.downloadUrl} download className="btn-primary mt-3" data-testid="export-download">
            {t('privacy.export.download')}
          </a>
          <p className="mt-2 text-xs text-ink-faint">{t('privacy.export.expires', { time: formatCnDateTime(ticket.expiresAt, false) })}</p>
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="max-w-md space-y-4" noValidate>
          <Checkbox checked={withId} onChange={setWithId} testId="export-with-id">
            {t('privacy.export.includeId')}
          </Checkbox>
          {withId && <SmsCodeField code={code} onCode={setCode} send={sendSecurityCode} countdownKey="security" testIdPrefix="export" />}
          <button type="submit" className="btn-ghost" disabled={busy} data-testid="export-request">
            {busy && <Spinner />}
            {t('privacy.export.request')}
          </button>
        </form>
      )}
    </div>
  );
}
