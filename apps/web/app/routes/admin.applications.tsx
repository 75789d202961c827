import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminApplicationDetail, AdminApplicationRow, Page } from '@cfx/contract/admin.ts';
import { SETTLED_STATUSES, type SettledStatus } from '@cfx/contract/settled-rules.ts';
import { adminApi, adminData, adminFile, saveBlob } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { Badge, Facts, fen, notify, QueryState, Tabs, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { useCan } from '../features/admin/session.ts';
import { AdminList, AdminListPage } from '../features/admin/components/admin-list-page.tsx';

const tone = (s: SettledStatus) => (s === 'approved' ? 'good' : s === 'rejected' ? 'bad' : s === 'reviewing' ? 'info' : 'warn');

/** Project applications (reviewers): the queue by status, one application with its files and history, decisions. */
export default function AdminApplications() {
  const t = useAdminT();
  return (
    <AdminListPage
      title={t('applications.title')}
      permission="applications.read"
      testId="admin-applications"
      list={<ApplicationList />}
      detail={(id, back) => <ApplicationDetail id={id} onBack={back} />}
    />
  );
}

function ApplicationList() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? 'submitted') as SettledStatus | '';
  return (
    <AdminList<AdminApplicationRow>
      queryKey={['admin', 'applications', status]}
      load={(page, pageSize) => adminData<Page<AdminApplicationRow>>(AdminPaths.applicationsList, { status: status || null, pageNum: page, pageSize })}
      testIds={{ table: 'admin-applications-table', row: 'admin-application-row', open: 'admin-application-open' }}
      columns={[
        { head: t('applications.project'), cell: (a) => a.projectName },
        { head: t('applications.creator'), cell: (a) => a.creatorName },
        { head: t('applications.supply'), cell: (a) => a.supply, className: 'tabular' },
        { head: t('applications.price'), cell: (a) => fen(a.priceFen), className: 'tabular' },
        { head: t('applications.applicant'), cell: (a) => a.accountId, className: 'tabular' },
        { head: t('applications.submittedAt'), cell: (a) => when(a.createdAt), className: 'tabular whitespace-nowrap' },
        { head: t('common.status'), cell: (a) => <Badge tone={tone(a.status)}>{t(`applications.status.${a.status}`)}</Badge> },
      ]}
      filters={
        <Tabs
          value={status}
          testId="admin-applications-tabs"
          options={[...SETTLED_STATUSES.map((s) => ({ value: s as SettledStatus | '', label: t(`applications.status.${s}`) })), { value: '', label: t('common.all') }]}
          onChange={(v) => setParams({ status: v })}
        />
      }
    />
  );
}

function ApplicationDetail({ id, onBack }: { id: number; onBack: () => void }) {
  const t = useAdminT();
  const can = useCan();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'application', id], queryFn: () => adminData<AdminApplicationDetail>(AdminPaths.applicationDetail, { id }) });
  const [dialog, setDialog] = useState<'approved' | 'rejected' | null>(null);

  const decide = async (decision: 'reviewing' | 'approved' | 'rejected', reason?: string) => {
    const r = await adminApi<AdminApplicationDetail>(AdminPaths.applicationReview, { id, decision, reason });
    if (!r.ok) return r.message;
    client.setQueryData(['admin', 'application', id], r.data);
    void client.invalidateQueries({ queryKey: ['admin', 'applications'] });
    notify.ok(r.message);
    return null;
  };
  const download = async (key: string, name: string) => {
    try {
      saveBlob(await adminFile(AdminPaths.applicationFile, id, key), name);
    } catch (err) {
      notify.fail((err as Error).message || t('common.loadFailed'));
    }
  };

  return (
    <div data-testid="admin-application-detail">
      <button type="button" className="mb-4 text-sm text-brand hover:underline" onClick={onBack}>
        ← {t('common.back')}
      </button>
      <QueryState q={q}>
        {(a) => {
          const open = a.status === 'submitted' || a.status === 'reviewing';
          return (
            <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
              <div className="card p-5">
                <div className="mb-4 flex flex-wrap items-center gap-3">
                  <h2 className="text-lg font-semibold text-ink">{a.projectName}</h2>
                  <Badge tone={tone(a.status)} testId="admin-application-status">
                    {t(`applications.status.${a.status}`)}
                  </Badge>
                </div>
                <Facts
                  rows={[
                    [t('applications.creator'), a.creatorName],
                    [t('applications.category'), a.category],
                    [t('applications.supply'), a.supply],
                    [t('applications.price'), fen(a.priceFen)],
                    [t('applications.contact'), a.contactName],
                    [t('applications.contactMobile'), a.mobile],
                    [t('applications.email'), a.email],
                    [t('applications.applicant'), `${a.accountId} · ${a.mobileMasked}`],
                    [t('applications.submittedAt'), when(a.createdAt)],
                  ]}
                />
                <h3 className="mb-2 mt-5 text-sm font-semibold text-ink">{t('applications.description')}</h3>
                <p className="whitespace-pre-wrap text-sm text-ink-soft">{a.description}</p>
                <h3 className="mb-2 mt-5 text-sm font-semibold text-ink">{t('applications.artworks')}</h3>
                <div className="flex flex-wrap gap-3">
                  {a.artworks.map((f) => (
                    <a key={f.key} href={f.url} target="_blank" rel="noreferrer" className="block">
                      <img src={f.url} alt={f.name} className="size-28 rounded-control border border-line object-cover" />
                    </a>
                  ))}
                </div>
                <h3 className="mb-2 mt-5 text-sm font-semibold text-ink">{t('applications.qualifications')}</h3>
                <ul className="space-y-1 text-sm">
                  {a.qualifications.map((f) => (
                    <li key={f.key}>
                      <button type="button" className="text-brand hover:underline" onClick={() => void download(f.key, f.name)} data-testid="admin-application-file">
                        {t('common.download')} {f.name}
                      </button>
                    </li>
                  ))}
                </ul>
                {can('applications.review') && open && (
                  <div className="mt-6 flex flex-wrap gap-3">
                    {a.status === 'submitted' && (
                      <button
                        type="button"
                        className="btn-ghost"
                        onClick={() => void decide('reviewing').then((e) => e && notify.fail(e))}
                        data-testid="admin-application-take"
                      >
                        {t('applications.takeUp')}
                      </button>
                    )}
                    <button type="button" className="btn-primary" onClick={() => setDialog('approved')} data-testid="admin-application-approve">
                      {t('applications.approve')}
                    </button>
                    <button type="button" className="btn bg-danger text-white hover:opacity-90" onClick={() => setDialog('rejected')} data-testid="admin-application-reject">
                      {t('applications.reject')}
                    </button>
                  </div>
                )}
              </div>
              <div className="card p-5">
                <h3 className="mb-3 text-sm font-semibold text-ink">{t('applications.history')}</h3>
                <ol className="space-y-3 text-sm" data-testid="admin-application-events">
                  {a.events.map((e, i) => (
                    <li key={i}>
                      <p className="text-ink">
                        {t(`applications.status.${e.to as SettledStatus}`)} · {e.byStaff ? t('applications.byStaff') : t('applications.byApplicant')}
                      </p>
                      <p className="text-xs text-ink-faint">{when(e.at)}</p>
                      {e.reason && <p className="text-ink-soft">{e.reason}</p>}
                    </li>
                  ))}
                </ol>
              </div>
              <ConfirmDialog
                open={dialog === 'approved'}
                onClose={() => setDialog(null)}
                title={t('applications.approveTitle', { name: a.projectName })}
                intro={t('applications.approveIntro')}
                confirmLabel={t('applications.approve')}
                testId="admin-approve-dialog"
                onConfirm={() => decide('approved')}
              />
              <ConfirmDialog
                open={dialog === 'rejected'}
                onClose={() => setDialog(null)}
                title={t('applications.rejectTitle', { name: a.projectName })}
                intro={t('applications.rejectIntro')}
                confirmLabel={t('applications.reject')}
                reason
                reasonLabel={t('applications.rejectReason')}
                danger
                testId="admin-reject-dialog"
                onConfirm={(reason) => decide('rejected', reason)}
              />
            </div>
          );
        }}
      </QueryState>
    </div>
  );
}
