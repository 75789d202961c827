import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminTicketDetail, AdminTicketRow, Page } from '@cfx/contract/admin.ts';
import { TICKET_STATUSES, type TicketStatus } from '@cfx/contract/ticket-rules.ts';
import { Spinner } from '../components/ui/spinner.tsx';
import { adminApi, adminData, adminFile } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { Badge, notify, QueryState, Tabs, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { useCan } from '../features/admin/session.ts';
import { AdminList, AdminListPage } from '../features/admin/components/admin-list-page.tsx';

const tone = (s: TicketStatus) => (s === 'open' ? 'warn' : s === 'answered' ? 'info' : 'neutral');

/** Customer-service tickets (support): the queue, one thread with its screenshots, answer and close. */
export default function AdminTickets() {
  const t = useAdminT();
  return <AdminListPage title={t('tickets.title')} permission="tickets.read" testId="admin-tickets" list={<TicketList />} detail={(id, back) => <TicketDetail id={id} onBack={back} />} />;
}

function TicketList() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? 'open') as TicketStatus | '';
  return (
    <AdminList<AdminTicketRow>
      queryKey={['admin', 'tickets', status]}
      load={(page, pageSize) => adminData<Page<AdminTicketRow>>(AdminPaths.ticketsList, { status: status || null, pageNum: page, pageSize })}
      testIds={{ table: 'admin-tickets-table', row: 'admin-ticket-row', open: 'admin-ticket-open' }}
      columns={[
        { head: t('tickets.subject'), cell: (k) => k.subject },
        { head: t('tickets.category'), cell: (k) => t(`tickets.categories.${k.category}`) },
        {
          head: t('tickets.user'),
          cell: (k) => (
            <>
              {k.nickname} <span className="text-xs text-ink-faint">{k.accountId}</span>
            </>
          ),
        },
        { head: t('tickets.orderNo'), cell: (k) => k.orderNo ?? '—', className: 'tabular' },
        { head: t('tickets.lastMessage'), cell: (k) => when(k.lastMessageAt), className: 'tabular whitespace-nowrap' },
        { head: t('common.status'), cell: (k) => <Badge tone={tone(k.status)}>{t(`tickets.status.${k.status}`)}</Badge> },
      ]}
      filters={
        <Tabs
          value={status}
          testId="admin-tickets-tabs"
          options={[...TICKET_STATUSES.map((s) => ({ value: s as TicketStatus | '', label: t(`tickets.status.${s}`) })), { value: '', label: t('common.all') }]}
          onChange={(v) => setParams({ status: v })}
        />
      }
    />
  );
}

function Attachment({ ticketId, fileKey, name }: { ticketId: number; fileKey: string; name: string }) {
  const t = useAdminT();
  const [url, setUrl] = useState('');
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made = '';
    let live = true;
    adminFile(AdminPaths.ticketFile, ticketId, fileKey)
      .then((blob) => {
        made = URL.createObjectURL(blob);
        if (live) setUrl(made);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [ticketId, fileKey]);
  if (failed) return <span className="text-xs text-danger">{t('common.loadFailed')}</span>;
  if (!url) return <Spinner />;
  return (
    <a href={url} target="_blank" rel="noreferrer" title={name}>
      <img src={url} alt={name} className="size-28 rounded-control border border-line object-cover" data-testid="admin-ticket-attachment" />
    </a>
  );
}

function TicketDetail({ id, onBack }: { id: number; onBack: () => void }) {
  const t = useAdminT();
  const can = useCan();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'ticket', id], queryFn: () => adminData<AdminTicketDetail>(AdminPaths.ticketDetail, { id }) });
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [closing, setClosing] = useState(false);

  const applied = (d: AdminTicketDetail, message: string) => {
    client.setQueryData(['admin', 'ticket', id], d);
    void client.invalidateQueries({ queryKey: ['admin', 'tickets'] });
    notify.ok(message);
  };
  const send = async () => {
    setBusy(true);
    setError('');
    const r = await adminApi<AdminTicketDetail>(AdminPaths.ticketReply, { id, text });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    setText('');
    applied(r.data, r.message);
  };
  const close = async () => {
    const r = await adminApi<AdminTicketDetail>(AdminPaths.ticketClose, { id });
    if (!r.ok) return r.message;
    applied(r.data, r.message);
    return null;
  };

  return (
    <div data-testid="admin-ticket-detail">
      <button type="button" className="mb-4 text-sm text-brand hover:underline" onClick={onBack}>
        ← {t('common.back')}
      </button>
      <QueryState q={q}>
        {(k) => (
          <div className="card p-5">
            <div className="mb-1 flex flex-wrap items-center gap-3">
              <h2 className="text-lg font-semibold text-ink">{k.subject}</h2>
              <Badge tone={tone(k.status)} testId="admin-ticket-status">
                {t(`tickets.status.${k.status}`)}
              </Badge>
            </div>
            <p className="mb-5 text-sm text-ink-faint">
              {t(`tickets.categories.${k.category}`)} · {k.nickname} ({k.accountId}){k.orderNo ? ` · ${t('tickets.orderNo')} ${k.orderNo}` : ''}
            </p>
            <h3 className="mb-2 text-sm font-semibold text-ink">{t('tickets.thread')}</h3>
            <ol className="space-y-3" data-testid="admin-ticket-thread">
              {k.messages.map((m) => (
                <li key={m.id} className={`rounded-control p-3 text-sm ${m.author === 'staff' ? 'ml-8 bg-brand-soft' : 'mr-8 bg-canvas'}`} data-testid="admin-ticket-message" data-author={m.author}>
                  <p className="mb-1 text-xs text-ink-faint">
                    {m.author === 'staff' ? t('tickets.fromStaff') : t('tickets.fromUser')} · {when(m.createdAt)}
                  </p>
                  <p className="whitespace-pre-wrap text-ink">{m.content}</p>
                  {m.attachments.length > 0 && (
                    <div className="mt-2 flex flex-wrap gap-2">
                      {m.attachments.map((a) => (
                        <Attachment key={a.key} ticketId={k.id} fileKey={a.key} name={a.name} />
                      ))}
                    </div>
                  )}
                </li>
              ))}
            </ol>
            {can('tickets.answer') && k.status !== 'closed' && (
              <div className="mt-5">
                <textarea
                  className="field-input h-28 py-2"
                  value={text}
                  placeholder={t('tickets.replyPlaceholder')}
                  onChange={(e) => setText(e.target.value)}
                  data-testid="admin-ticket-reply-text"
                />
                {error && (
                  <p className="mt-2 text-sm text-danger" role="alert">
                    {error}
                  </p>
                )}
                <div className="mt-3 flex flex-wrap gap-3">
                  <button type="button" className="btn-primary" disabled={busy || !text.trim()} onClick={() => void send()} data-testid="admin-ticket-send">
                    {busy && <Spinner />} {t('tickets.send')}
                  </button>
                  <button type="button" className="btn-ghost" onClick={() => setClosing(true)} data-testid="admin-ticket-close">
                    {t('tickets.closeTicket')}
                  </button>
                </div>
              </div>
            )}
            <ConfirmDialog
              open={closing}
              onClose={() => setClosing(false)}
              title={t('tickets.closeTitle', { subject: k.subject })}
              intro={t('tickets.closeIntro')}
              confirmLabel={t('tickets.closeTicket')}
              testId="admin-ticket-close-dialog"
              onConfirm={close}
            />
          </div>
        )}
      </QueryState>
    </div>
  );
}
