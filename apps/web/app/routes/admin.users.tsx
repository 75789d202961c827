import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminUserDetail, AdminUserRow, Page } from '@cfx/contract/admin.ts';
import { adminApi, adminData } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { Badge, Facts, fen, notify, QueryState, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { useCan } from '../features/admin/session.ts';
import { AdminList, AdminListPage } from '../features/admin/components/admin-list-page.tsx';

/** User lookup (support, reviewers, finance): masked phones, an audited reveal, freeze / unfreeze with a reason. */
export default function AdminUsers() {
  const t = useAdminT();
  return <AdminListPage title={t('users.title')} permission="users.read" testId="admin-users" list={<UserList />} detail={(id, back) => <UserDetail id={id} onBack={back} />} />;
}

function UserList() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const frozen = params.get('frozen') === '1';
  const yesNo = (v: boolean) => (v ? t('common.yes') : t('common.no'));
  return (
    <AdminList<AdminUserRow>
      queryKey={['admin', 'users', q, frozen]}
      load={(page, pageSize) => adminData<Page<AdminUserRow>>(AdminPaths.usersSearch, { q, frozen, pageNum: page, pageSize })}
      showTotal
      testIds={{ table: 'admin-users-table', row: 'admin-user-row', open: 'admin-user-open' }}
      rowAttrs={(u) => ({ 'data-user-id': u.id })}
      columns={[
        { head: t('users.id'), cell: (u) => u.id, className: 'tabular' },
        { head: t('users.accountId'), cell: (u) => u.accountId, className: 'tabular' },
        { head: t('users.nickname'), cell: (u) => u.nickname },
        { head: t('users.mobile'), cell: (u) => u.mobileMasked, className: 'tabular' },
        { head: t('users.realname'), cell: (u) => yesNo(u.isRealname) },
        { head: t('users.wallet'), cell: (u) => yesNo(u.walletLinked) },
        { head: t('common.status'), cell: (u) => <UserState u={u} /> },
        { head: t('users.createdAt'), cell: (u) => when(u.createdAt), className: 'tabular whitespace-nowrap' },
      ]}
      filters={
        <form
          className="mb-4 flex flex-wrap items-center gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            const next = new URLSearchParams();
            const text = String(f.get('q') ?? '').trim();
            if (text) next.set('q', text);
            if (f.get('frozen')) next.set('frozen', '1');
            setParams(next);
          }}
        >
          <input name="q" defaultValue={q} key={q} placeholder={t('users.searchPlaceholder')} className="field-input h-10 max-w-sm" data-testid="admin-users-q" />
          <label className="flex items-center gap-1.5 text-sm text-ink-soft">
            <input type="checkbox" name="frozen" defaultChecked={frozen} key={String(frozen)} data-testid="admin-users-frozen" /> {t('users.frozenOnly')}
          </label>
          <button type="submit" className="btn-primary" data-testid="admin-users-search">
            {t('common.search')}
          </button>
        </form>
      }
    />
  );
}

function UserState({ u }: { u: Pick<AdminUserRow, 'frozenAt' | 'cancelledAt'> }) {
  const t = useAdminT();
  if (u.cancelledAt) return <Badge>{t('users.cancelled')}</Badge>;
  return u.frozenAt ? (
    <Badge tone="bad" testId="admin-user-state">
      {t('users.frozen')}
    </Badge>
  ) : (
    <Badge tone="good" testId="admin-user-state">
      {t('users.active')}
    </Badge>
  );
}

function UserDetail({ id, onBack }: { id: number; onBack: () => void }) {
  const t = useAdminT();
  const can = useCan();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'user', id], queryFn: () => adminData<AdminUserDetail>(AdminPaths.userDetail, { userId: id }) });
  const [mobile, setMobile] = useState('');
  const [dialog, setDialog] = useState<'freeze' | 'unfreeze' | null>(null);

  const reveal = async () => {
    const r = await adminApi<{ mobile: string }>(AdminPaths.userReveal, { userId: id });
    if (r.ok) setMobile(r.data.mobile);
    else notify.fail(r.message);
  };
  const act = async (kind: 'freeze' | 'unfreeze', reason: string) => {
    const r = await adminApi<AdminUserDetail>(kind === 'freeze' ? AdminPaths.userFreeze : AdminPaths.userUnfreeze, { userId: id, reason });
    if (!r.ok) return r.message;
    client.setQueryData(['admin', 'user', id], r.data);
    void client.invalidateQueries({ queryKey: ['admin', 'users'] });
    notify.ok(r.message);
    return null;
  };

  return (
    <div data-testid="admin-user-detail">
      <button type="button" className="mb-4 text-sm text-brand hover:underline" onClick={onBack}>
        ← {t('common.back')}
      </button>
      <QueryState q={q}>
        {(u) => (
          <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
            <div className="card p-5">
              <div className="mb-4 flex flex-wrap items-center gap-3">
                <h2 className="text-lg font-semibold text-ink">{u.nickname}</h2>
                <UserState u={u} />
              </div>
              <Facts
                rows={[
                  [t('users.id'), u.id],
                  [t('users.accountId'), u.accountId],
                  [
                    t('users.mobile'),
                    <span key="m" className="inline-flex flex-wrap items-center gap-2">
                      <span className="tabular" data-testid="admin-user-mobile">
                        {mobile || u.mobileMasked}
                      </span>
                      {!mobile && can('users.reveal') && (
                        <button type="button" className="text-xs text-brand hover:underline" title={t('users.revealHint')} onClick={() => void reveal()} data-testid="admin-user-reveal">
                          {t('users.reveal')}
                        </button>
                      )}
                    </span>,
                  ],
                  [t('users.realnameInfo'), u.realname ? `${u.realname.nameMasked} · ${u.realname.idMasked} · ${when(u.realname.verifiedAt)}` : t('users.notVerified')],
                  [t('users.wallet'), u.walletLinked ? t('common.yes') : t('common.no')],
                  [t('users.creator'), u.isCreator ? t('common.yes') : t('common.no')],
                  [t('users.balance'), fen(u.balanceFen)],
                  [t('users.orders'), u.orders],
                  [t('users.liveSessions'), <span key="s" data-testid="admin-user-sessions">{u.liveSessions}</span>],
                  [t('users.createdAt'), when(u.createdAt)],
                ]}
              />
              {can('users.freeze') && !u.cancelledAt && (
                <div className="mt-5">
                  {u.frozenAt ? (
                    <button type="button" className="btn-ghost" onClick={() => setDialog('unfreeze')} data-testid="admin-user-unfreeze">
                      {t('users.unfreeze')}
                    </button>
                  ) : (
                    <button type="button" className="btn bg-danger text-white hover:opacity-90" onClick={() => setDialog('freeze')} data-testid="admin-user-freeze">
                      {t('users.freeze')}
                    </button>
                  )}
                </div>
              )}
            </div>
            <div className="card p-5">
              <h3 className="mb-3 text-sm font-semibold text-ink">{t('users.history')}</h3>
              {u.freezes.length === 0 ? (
                <p className="text-sm text-ink-faint">{t('users.noHistory')}</p>
              ) : (
                <ul className="space-y-3 text-sm" data-testid="admin-user-freezes">
                  {u.freezes.map((f) => (
                    <li key={f.frozenAt}>
                      <p className="text-ink">{t('users.frozenBy', { time: when(f.frozenAt), staff: f.frozenBy, reason: f.reason })}</p>
                      {f.unfrozenAt && <p className="text-ink-faint">{t('users.unfrozenBy', { time: when(f.unfrozenAt), staff: f.unfrozenBy ?? '', reason: f.unfreezeReason ?? '' })}</p>}
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <ConfirmDialog
              open={dialog === 'freeze'}
              onClose={() => setDialog(null)}
              title={t('users.freezeTitle', { name: u.nickname })}
              intro={t('users.freezeIntro')}
              confirmLabel={t('users.freeze')}
              reason
              danger
              testId="admin-freeze-dialog"
              onConfirm={(reason) => act('freeze', reason)}
            />
            <ConfirmDialog
              open={dialog === 'unfreeze'}
              onClose={() => setDialog(null)}
              title={t('users.unfreezeTitle', { name: u.nickname })}
              confirmLabel={t('users.unfreeze')}
              reason
              testId="admin-unfreeze-dialog"
              onConfirm={(reason) => act('unfreeze', reason)}
            />
          </div>
        )}
      </QueryState>
    </div>
  );
}
