import { useCallback, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TICKET_LIMITS } from '@cfx/contract/ticket-rules.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { closeTicket, getTicket, reopenTicket, replyTicket, type TicketDetail } from '../api/tickets.ts';
import { canReopen, charCount } from '../validate.ts';
import { AttachmentImage } from './attachment-image.tsx';
import { ImagePicker } from './image-picker.tsx';
import { TicketStatusBadge } from './status-badge.tsx';

/**
 * One ticket: its thread (me and customer service, never a staff name), my reply box with images,
 * close (confirmed) and reopen within the window. Opening it marks the staff replies read, so the
 * list and the menu's indicator are refreshed.
 */
export function TicketThread({ id, onBack }: { id: number; onBack: () => void }) {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const qc = useQueryClient();
  const key = ['ticket', token, id];
  const q = useQuery({ queryKey: key, queryFn: () => getTicket(id), enabled: token !== '', retry: false });
  const unreadSeen = q.data !== undefined;
  useEffect(() => {
    if (unreadSeen) {
      void qc.invalidateQueries({ queryKey: ['tickets'] });
      void qc.invalidateQueries({ queryKey: ['ticket-unread'] });
    }
  }, [unreadSeen, qc]);

  const apply = (d: TicketDetail) => {
    qc.setQueryData(key, d);
    void qc.invalidateQueries({ queryKey: ['tickets'] });
  };

  return (
    <div data-testid="ticket-thread" data-id={id}>
      <button type="button" className="mb-4 text-sm text-brand hover:underline" onClick={onBack} data-testid="ticket-back">
        ‹ {t('tickets.back')}
      </button>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <p className="py-6 text-center text-sm text-ink-faint" data-testid="ticket-thread-error">
          {q.error.message || t('common.loadFailed')}
        </p>
      ) : (
        <Thread ticket={q.data} onChange={apply} />
      )}
    </div>
  );
}

function Thread({ ticket: tk, onChange }: { ticket: TicketDetail; onChange: (d: TicketDetail) => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const act = async (fn: () => ReturnType<typeof closeTicket>) => {
    setBusy(true);
    const r = await fn();
    setBusy(false);
    setConfirming(false);
    if (r.ok) {
      toast.success(r.message);
      onChange(r.data);
    }
  };
  const now = Date.now();

  return (
    <article>
      <header className="border-b border-line pb-4">
        <div className="flex flex-wrap items-center gap-2">
          <TicketStatusBadge status={tk.status} />
          <h2 className="text-lg font-semibold text-ink" data-testid="ticket-subject">
            {tk.subject}
          </h2>
        </div>
        <p className="mt-1 text-xs text-ink-faint">
          {t(`tickets.categories.${tk.category}`)} · {t('tickets.createdAt', { time: formatCnDateTime(tk.createdAt, false) })}
          {tk.orderNo ? ` · ${t('tickets.orderLabel', { no: tk.orderNo })}` : ''}
        </p>
      </header>
      <ol className="space-y-4 py-5" data-testid="ticket-messages">
        {tk.messages.map((m) => (
          <li key={m.id} className={`flex ${m.author === 'user' ? 'justify-end' : 'justify-start'}`} data-testid="ticket-message" data-author={m.author}>
            <div className={`max-w-[85%] rounded-card px-4 py-3 ${m.author === 'user' ? 'bg-brand-soft' : 'bg-canvas'}`}>
              <p className="mb-1 text-xs text-ink-faint">
                {m.author === 'user' ? t('tickets.you') : t('tickets.staff')} · <span className="tabular">{formatCnDateTime(m.createdAt, false)}</span>
              </p>
              <p className="whitespace-pre-wrap break-words text-sm text-ink" data-testid="ticket-message-text">
                {m.content}
              </p>
              {m.attachments.length > 0 && (
                <div className="mt-2 flex flex-wrap gap-2">
                  {m.attachments.map((a, i) => (
                    <AttachmentImage key={a.key} file={a} alt={t('tickets.attachmentAlt', { n: i + 1 })} />
                  ))}
                </div>
              )}
            </div>
          </li>
        ))}
      </ol>
      {tk.status === 'closed' ? (
        <div className="rounded-control bg-canvas p-4 text-sm text-ink-soft" data-testid="ticket-closed">
          <p>
            {t('tickets.closedNote')} {canReopen(tk, now) ? t('tickets.reopenUntil', { time: formatCnDateTime(tk.reopenUntil, false) }) : t('tickets.reopenExpired')}
          </p>
          {canReopen(tk, now) && (
            <button type="button" className="btn-ghost mt-3" disabled={busy} onClick={() => void act(() => reopenTicket(tk.id))} data-testid="ticket-reopen">
              {t('tickets.reopen')}
            </button>
          )}
        </div>
      ) : (
        <>
          <ReplyBox ticketId={tk.id} onSent={onChange} />
          <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-line pt-4 text-sm">
            {confirming ? (
              <>
                <span className="text-ink-soft">{t('tickets.closeConfirm', { days: TICKET_LIMITS.reopenDays })}</span>
                <button type="button" className="btn-ghost h-9" disabled={busy} onClick={() => void act(() => closeTicket(tk.id))} data-testid="ticket-close-confirm">
                  {t('common.confirm')}
                </button>
                <button type="button" className="text-ink-faint hover:text-ink" onClick={() => setConfirming(false)}>
                  {t('common.cancel')}
                </button>
              </>
            ) : (
              <button type="button" className="text-ink-faint hover:text-danger" onClick={() => setConfirming(true)} data-testid="ticket-close">
                {t('tickets.close')}
              </button>
            )}
          </div>
        </>
      )}
    </article>
  );
}

function ReplyBox({ ticketId, onSent }: { ticketId: number; onSent: (d: TicketDetail) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [images, setImages] = useState<{ keys: string[]; uploading: boolean }>({ keys: [], uploading: false });
  const [round, setRound] = useState(0);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const onImages = useCallback((s: { keys: string[]; uploading: boolean }) => setImages(s), []);
  const n = charCount(text);
  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy || images.uploading) return;
    if (n === 0 || n > TICKET_LIMITS.contentMax) return setError(t('tickets.errors.content'));
    setBusy(true);
    setError('');
    const r = await replyTicket(ticketId, text, images.keys);
    setBusy(false);
    if (!r.ok) return setError(r.message || t('common.requestFailed'));
    setText('');
    setRound((x) => x + 1); // a fresh image picker
    onSent(r.data);
  };
  return (
    <form onSubmit={(e) => void send(e)} className="space-y-3" data-testid="ticket-reply-form">
      <label className="block text-sm text-ink-soft">
        <span className="flex justify-between">
          {t('tickets.reply')}
          <span className={`tabular text-xs ${n > TICKET_LIMITS.contentMax ? 'text-danger' : 'text-ink-faint'}`}>{t('tickets.chars', { count: n, max: TICKET_LIMITS.contentMax })}</span>
        </span>
        <textarea className="field-input mt-1.5 h-24 resize-y py-2" value={text} onChange={(e) => setText(e.target.value)} placeholder={t('tickets.replyPlaceholder')} data-testid="ticket-reply-text" />
      </label>
      <ImagePicker key={round} onChange={onImages} testId="ticket-reply-images" />
      {error && (
        <p className="text-sm text-danger" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary" disabled={busy || images.uploading} data-testid="ticket-reply-send">
        {busy ? t('tickets.sending') : t('tickets.send')}
      </button>
    </form>
  );
}
