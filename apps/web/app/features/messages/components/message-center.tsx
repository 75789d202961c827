import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { getUnread } from '../api/get-unread.ts';
import { listMessages } from '../api/list-messages.ts';
import { markRead } from '../api/mark-read.ts';
import { getMessageSettings, saveMessageSettings } from '../api/message-settings.ts';
import { MESSAGE_KINDS, type MessageItem, type MessageKind, type MessagePage, type MessageSettings } from '../api/types.ts';
import { useMessageStream } from '../stream.ts';

const PAGE_SIZE = 10;

function kindParam(v: string | null): MessageKind | undefined {
  return v && (MESSAGE_KINDS as readonly string[]).includes(v) ? (v as MessageKind) : undefined;
}

/**
 * The message center (/personal-center/message-center, navigation index 5): my messages newest
 * first, filtered by kind (tabs with unread counts) and "unread only", paged by `?page=`; unread
 * ones highlighted; a click marks one read and opens its link; "mark all read"; and the settings
 * panel (per kind: message center / SMS). New messages pushed by the stream refresh the list.
 */
export function MessageCenter() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const kind = kindParam(params.get('kind'));
  const unreadOnly = params.get('unread') === '1';
  const page = Math.max(1, Math.min(10_000, Number(params.get('page')) || 1));
  const token = useUserStore((s) => s.token);
  const client = useQueryClient();
  const version = useMessageStream((s) => s.version);
  const streamUnread = useMessageStream((s) => s.unread);
  const setUnread = useMessageStream((s) => s.setUnread);
  const [tab, setTab] = useState<'list' | 'settings'>('list');

  const listKey = ['messages', token, kind ?? 'all', unreadOnly, page];
  const q = useQuery({
    queryKey: listKey,
    queryFn: () => listMessages({ pageNum: page, pageSize: PAGE_SIZE, kind, unread: unreadOnly || undefined }),
    enabled: token !== '',
  });
  const counts = useQuery({ queryKey: ['messages-unread', token], queryFn: getUnread, enabled: token !== '' });

  // A pushed message or a changed count (another tab read something): refresh what is shown.
  useEffect(() => {
    if (version === 0) return;
    void client.invalidateQueries({ queryKey: ['messages'] });
    void client.invalidateQueries({ queryKey: ['messages-unread'] });
  }, [version, client]);
  const shownCount = useRef<number | undefined>(undefined);
  shownCount.current = counts.data?.count;
  useEffect(() => {
    if (streamUnread === null || shownCount.current === undefined || shownCount.current === streamUnread) return;
    void client.invalidateQueries({ queryKey: ['messages-unread'] });
    void client.invalidateQueries({ queryKey: ['messages'] });
  }, [streamUnread, client]);

  function setFilter(next: { kind?: MessageKind | null; unread?: boolean }) {
    const p = new URLSearchParams(params);
    if (next.kind !== undefined) {
      if (next.kind) p.set('kind', next.kind);
      else p.delete('kind');
    }
    if (next.unread !== undefined) {
      if (next.unread) p.set('unread', '1');
      else p.delete('unread');
    }
    p.delete('page');
    setParams(p, { preventScrollReset: true });
  }

  async function read(target: { ids: number[] } | { all: true; kind?: MessageKind }) {
    const r = await markRead(target);
    if (!r.ok) return false;
    setUnread(r.data.unread);
    // Mark them read in the cached page at once; then refetch.
    client.setQueryData<MessagePage>(listKey, (old) =>
      old ? { ...old, unread: r.data.unread, list: old.list.map((m) => ('ids' in target ? (target.ids.includes(m.id) ? { ...m, read: true } : m) : !target.kind || m.kind === target.kind ? { ...m, read: true } : m)) } : old,
    );
    void client.invalidateQueries({ queryKey: ['messages'] });
    void client.invalidateQueries({ queryKey: ['messages-unread'] });
    return true;
  }

  const total = counts.data?.count ?? streamUnread ?? 0;
  return (
    <div className="card p-6" data-testid="message-center">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 className="text-lg text-ink">{t('messageCenter.title')}</h1>
        <div role="tablist" aria-label={t('messageCenter.title')} className="ml-auto flex gap-1 rounded-full bg-canvas p-1 text-sm">
          {(['list', 'settings'] as const).map((v) => (
            <button
              key={v}
              type="button"
              role="tab"
              aria-selected={tab === v}
              data-testid={`mc-tab-${v}`}
              onClick={() => setTab(v)}
              className={`rounded-full px-4 py-1 ${tab === v ? 'bg-surface font-medium text-brand shadow-sm' : 'text-ink-soft hover:text-ink'}`}
            >
              {v === 'list' ? t('messageCenter.tabs.list') : t('messageCenter.tabs.settings')}
            </button>
          ))}
        </div>
      </div>

      {tab === 'settings' ? (
        <SettingsPanel />
      ) : (
        <>
          <div className="mb-4 flex flex-wrap items-center gap-2" data-testid="mc-filters">
            <KindChip active={!kind} label={t('messageCenter.allKinds')} count={total} onClick={() => setFilter({ kind: null })} testId="mc-kind-all" />
            {MESSAGE_KINDS.map((k) => (
              <KindChip key={k} active={kind === k} label={t(`messageCenter.kinds.${k}`)} count={counts.data?.byKind[k] ?? 0} onClick={() => setFilter({ kind: k })} testId={`mc-kind-${k}`} />
            ))}
          </div>
          <div className="mb-3 flex flex-wrap items-center gap-4 text-sm">
            <label className="flex cursor-pointer items-center gap-2 text-ink-soft">
              <input type="checkbox" checked={unreadOnly} onChange={(e) => setFilter({ unread: e.target.checked })} data-testid="mc-unread-only" />
              {t('messageCenter.unreadOnly')}
            </label>
            <button
              type="button"
              className="ml-auto text-brand hover:underline disabled:cursor-not-allowed disabled:text-ink-faint disabled:no-underline"
              disabled={!(kind ? counts.data?.byKind[kind] : total)}
              onClick={async () => {
                if (await read(kind ? { all: true, kind } : { all: true })) toast.success(t('messageCenter.allRead'));
              }}
              data-testid="mc-read-all"
            >
              {t('messageCenter.markAllRead')}
            </button>
          </div>

          {q.isPending ? (
            <LoadingBlock label={t('common.loading')} />
          ) : q.isError ? (
            <p className="flex items-center gap-3 py-10 text-sm text-ink-faint" data-testid="mc-list" data-status="error">
              {t('common.loadFailed')}
              <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()} data-testid="mc-retry">
                {t('common.retry')}
              </button>
            </p>
          ) : q.data.list.length === 0 ? (
            <div className="py-14 text-center text-sm text-ink-faint" data-testid="mc-list" data-status="empty">
              <p>{unreadOnly || kind ? t('messageCenter.emptyFiltered') : t('messageCenter.empty')}</p>
              {(unreadOnly || kind) && (
                <button type="button" className="mt-3 text-brand hover:underline" onClick={() => setFilter({ kind: null, unread: false })}>
                  {t('messageCenter.showAll')}
                </button>
              )}
            </div>
          ) : (
            <>
              <ul className="divide-y divide-line" data-testid="mc-list" data-status="ready" data-total={q.data.total} id="mc-list">
                {q.data.list.map((m) => (
                  <MessageRow key={m.id} m={m} onRead={() => read({ ids: [m.id] })} />
                ))}
              </ul>
              <div className="mt-4">
                <Pager page={page} total={q.data.total} pageSize={PAGE_SIZE} anchor="mc-list" />
              </div>
            </>
          )}
        </>
      )}
    </div>
  );
}

function KindChip({ active, label, count, onClick, testId }: { active: boolean; label: string; count: number; onClick: () => void; testId: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={active}
      data-testid={testId}
      className={`flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs ${active ? 'border-brand bg-brand-soft text-brand' : 'border-line text-ink-soft hover:border-brand/50'}`}
    >
      {label}
      {count > 0 && <span className="tabular rounded-full bg-danger px-1.5 text-[10px] leading-4 text-white">{count > 99 ? '99+' : count}</span>}
    </button>
  );
}

function MessageRow({ m, onRead }: { m: MessageItem; onRead: () => Promise<boolean> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  async function open() {
    if (!m.read) {
      setBusy(true);
      await onRead();
      setBusy(false);
    }
    if (m.link) navigate(m.link);
  }
  return (
    <li
      className={`flex gap-3 py-4 ${m.read ? '' : 'bg-brand-soft/40 -mx-3 rounded-md px-3'}`}
      data-testid="mc-item"
      data-id={m.id}
      data-kind={m.kind}
      data-read={m.read ? '1' : '0'}
    >
      <span aria-hidden className={`mt-1.5 size-2 shrink-0 rounded-full ${m.read ? 'bg-transparent' : 'bg-danger'}`} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <span className="rounded bg-canvas px-1.5 py-0.5 text-[11px] text-ink-faint">{t(`messageCenter.kinds.${m.kind}`)}</span>
          <button type="button" onClick={() => void open()} className={`text-left text-sm hover:text-brand ${m.read ? 'text-ink-soft' : 'font-medium text-ink'}`} data-testid="mc-item-title">
            {m.title}
          </button>
          {!m.read && <span className="sr-only">{t('messageCenter.unread')}</span>}
          <time className="tabular ml-auto text-xs text-ink-faint" dateTime={new Date(m.createdAt).toISOString()}>
            {formatCnDateTime(m.createdAt, false)}
          </time>
        </p>
        <p className="mt-1 break-words text-sm leading-6 text-ink-soft" data-testid="mc-item-body">
          {m.body}
        </p>
        <p className="mt-1 flex gap-4 text-xs">
          {m.link && (
            <Link to={m.link} onClick={() => void (m.read ? undefined : onRead())} className="text-brand hover:underline">
              {t('messageCenter.view')}
            </Link>
          )}
          {!m.read && (
            <button type="button" disabled={busy} className="text-ink-faint hover:text-brand" onClick={() => void onRead()} data-testid="mc-item-read">
              {busy && <Spinner />}
              {t('messageCenter.markRead')}
            </button>
          )}
        </p>
      </div>
    </li>
  );
}

/** Per kind: shown in the message center, and sent by SMS; each switch is saved at once. */
function SettingsPanel() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const client = useQueryClient();
  const key = ['message-settings', token];
  const q = useQuery({ queryKey: key, queryFn: getMessageSettings, enabled: token !== '' });
  const [saving, setSaving] = useState<string | null>(null);

  async function toggle(kind: MessageKind, field: 'inApp' | 'sms', value: boolean) {
    setSaving(`${kind}:${field}`);
    const r = await saveMessageSettings([{ kind, [field]: value }]);
    setSaving(null);
    if (!r.ok || !r.data) return;
    client.setQueryData<MessageSettings>(key, r.data);
    toast.success(r.message || t('settings.saved'));
    void client.invalidateQueries({ queryKey: ['messages'] });
  }

  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <p className="flex items-center gap-3 py-6 text-sm text-ink-faint" data-testid="mc-settings" data-status="error">
        {t('common.loadFailed')}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  return (
    <div data-testid="mc-settings" data-status="ready">
      <p className="mb-3 text-xs text-ink-faint">{t('messageCenter.settings.hint')}</p>
      {!q.data.smsAvailable && <p className="mb-3 text-xs text-warning">{t('messageCenter.settings.noPhone')}</p>}
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-line text-left text-xs text-ink-faint">
            <th className="py-2 font-normal">{t('messageCenter.settings.kind')}</th>
            <th className="w-28 py-2 text-center font-normal">{t('messageCenter.settings.inApp')}</th>
            <th className="w-28 py-2 text-center font-normal">{t('messageCenter.settings.sms')}</th>
          </tr>
        </thead>
        <tbody>
          {q.data.items.map((s) => (
            <tr key={s.kind} className="border-b border-line last:border-0" data-testid={`mc-setting-${s.kind}`}>
              <td className="py-3">
                <span className="block text-ink" id={`mc-setting-${s.kind}-label`}>
                  {t(`messageCenter.kinds.${s.kind}`)}
                </span>
                <span className="block text-xs text-ink-faint">{t(`messageCenter.kindHints.${s.kind}`)}</span>
              </td>
              {(['inApp', 'sms'] as const).map((field) => {
                const on = s[field];
                const disabled = saving !== null || (field === 'sms' && !q.data.smsAvailable);
                return (
                  <td key={field} className="py-3 text-center">
                    <span className="inline-flex items-center gap-2">
                      {saving === `${s.kind}:${field}` && <Spinner className="text-ink-faint" />}
                      <button
                        type="button"
                        role="switch"
                        aria-checked={on}
                        aria-label={`${t(`messageCenter.kinds.${s.kind}`)} · ${field === 'inApp' ? t('messageCenter.settings.inApp') : t('messageCenter.settings.sms')}`}
                        disabled={disabled}
                        onClick={() => void toggle(s.kind, field, !on)}
                        data-testid={`mc-setting-${s.kind}-${field}`}
                        className={`relative h-6 w-11 rounded-full transition-colors disabled:opacity-50 ${on ? 'bg-brand' : 'bg-line'}`}
                      >
                        <span aria-hidden className={`absolute top-0.5 size-5 rounded-full bg-white shadow transition-all ${on ? 'left-[22px]' : 'left-0.5'}`} />
                      </button>
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
