import { useCallback, useState } from 'react';
import { TICKET_CATEGORIES, TICKET_LIMITS, type TicketField } from '@cfx/contract/ticket-rules.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { toast } from '../../../stores/toast.ts';
import { createTicket, type NewTicket, type TicketDetail } from '../api/tickets.ts';
import { charCount, firstInvalid } from '../validate.ts';
import { ImagePicker } from './image-picker.tsx';

/**
 * A new ticket: topic, subject, description (≤ 2000), up to three screenshots and an optional order
 * number of mine. The server's rules are checked first with the same texts; its refusal (order not
 * mine, daily cap) is shown above the button and the input is kept.
 */
export function TicketForm({ onCreated, onCancel }: { onCreated: (t: TicketDetail) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<Omit<NewTicket, 'attachmentKeys'>>({ category: '', subject: '', content: '', orderNo: '' });
  const [images, setImages] = useState<{ keys: string[]; uploading: boolean }>({ keys: [], uploading: false });
  const [invalid, setInvalid] = useState<TicketField | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const onImages = useCallback((s: { keys: string[]; uploading: boolean }) => setImages(s), []);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    if (invalid === k) setInvalid(undefined);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy || images.uploading) return;
    const body: NewTicket = { ...form, attachmentKeys: images.keys };
    const bad = firstInvalid(body);
    setInvalid(bad);
    if (bad) return setError(t(`tickets.errors.${bad}`));
    setBusy(true);
    setError('');
    const r = await createTicket(body);
    setBusy(false);
    if (!r.ok) return setError(r.message || t('common.requestFailed'));
    toast.success(r.message);
    onCreated(r.data);
  };

  const field = (k: TicketField) => ({ 'aria-invalid': invalid === k || undefined, 'aria-describedby': invalid === k ? 'ticket-form-error' : undefined });
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5" data-testid="ticket-form">
      <div className="grid gap-5 sm:grid-cols-2">
        <label className="block text-sm text-ink-soft">
          {t('tickets.category')}
          <select className="field-input mt-1.5" value={form.category} onChange={set('category')} data-testid="ticket-category" {...field('category')}>
            <option value="">{t('tickets.categoryPlaceholder')}</option>
            {TICKET_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(`tickets.categories.${c}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm text-ink-soft">
          {t('tickets.orderNo')}
          <input className="field-input mt-1.5" value={form.orderNo} onChange={set('orderNo')} maxLength={TICKET_LIMITS.orderNoMax} placeholder={t('tickets.orderNoPlaceholder')} data-testid="ticket-order" {...field('orderNo')} />
        </label>
      </div>
      <label className="block text-sm text-ink-soft">
        {t('tickets.subject')}
        <input className="field-input mt-1.5" value={form.subject} onChange={set('subject')} maxLength={TICKET_LIMITS.subjectMax * 2} placeholder={t('tickets.subjectPlaceholder')} data-testid="ticket-subject" {...field('subject')} />
      </label>
      <label className="block text-sm text-ink-soft">
        <span className="flex justify-between">
          {t('tickets.content')}
          <span className={`tabular text-xs ${charCount(form.content) > TICKET_LIMITS.contentMax ? 'text-danger' : 'text-ink-faint'}`}>
            {t('tickets.chars', { count: charCount(form.content), max: TICKET_LIMITS.contentMax })}
          </span>
        </span>
        <textarea className="field-input mt-1.5 h-36 resize-y py-2" value={form.content} onChange={set('content')} placeholder={t('tickets.contentPlaceholder')} data-testid="ticket-content" {...field('content')} />
      </label>
      <div className="text-sm text-ink-soft">
        <p className="mb-1.5">{t('tickets.attachments')}</p>
        <ImagePicker onChange={onImages} testId="ticket-images" />
      </div>
      {error && (
        <p id="ticket-form-error" className="rounded-control bg-danger/5 px-3 py-2 text-sm text-danger" role="alert" data-testid="ticket-form-error">
          {error}
        </p>
      )}
      <div className="flex gap-3">
        <button type="submit" className="btn-primary h-11 px-6" disabled={busy || images.uploading} data-testid="ticket-submit">
          {busy ? t('tickets.submitting') : t('tickets.submit')}
        </button>
        <button type="button" className="btn-ghost h-11" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
