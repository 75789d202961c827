import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminApplicationDetail, AdminApplicationRow, Page } from '@cfx/contract/admin.ts';
import { SETTLED_STATUSES, type SettledStatus } from '@cfx/contract/settled-rules.ts';
import { Pager } from '../components/ui/pager.tsx';
import { adminApi, adminData, adminFile, saveBlob } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { AdminPage, Badge, Facts, fen, notify, QueryState, Table, Tabs, td, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { useCan } from '../features/admin/session.ts';
import { useDetailId } from '../features/admin/detail-param.ts';

const PAGE_SIZE = 20;
const tone = (s: SettledStatus) => (s === 'approved' ? 'good' : s === 'rejected' ? 'bad' : s === 'reviewing' ? 'info' : 'warn');

/** Project applications (reviewers): the queue by status, one application with its files and history, decisions. */
export default function AdminApplications() {
  const t = useAdminT();
  const { id, back } = useDetailId();
  return (
    <AdminPage title={t('applications.title')} permission="applications.read" testId="admin-applications">
      {id !== null ? <ApplicationDetail id={id} onBack={back} /> : <ApplicationList />}
    </AdminPage>
  );
}

function ApplicationList() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? 'submitted') as SettledStatus | '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    queryKey: ['admin', 'applications', status, page],
    queryFn: () => adminData<Page<AdminApplicationRow>>(AdminPaths.applicationsList, { status: status || null, pageNum: page, pageSize: PAGE_SIZE }),
  });
  return (
    <>
      <Tabs
        value={status}
        testId="admin-applications-tabs"
        options={[...SETTLED_STATUSES.map((s) => ({ value: s as SettledStatus | '', label: t(`applications.status.${s}`) })), { value: '', label: t('common.all') }]}
        onChange={(v) => setParams({ status: v })}
      />
      <QueryState q={q} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            <Table head={[t('applications.project'), t('applications.creator'), t('applications.supply'), t('applications.price'), t('applications.applicant'), t('applications.submittedAt'), t('common.status'), '']} testId="admin-applications-table">
              {d.list.map((a) => (
                <tr key={a.id} data-testid="admin-application-row" data-id={a.id}>
                  <td className={td}>{a.projectName}</td>
                  <td className={td}>{a.creatorName}</td>
                  <td className={`${td} tabular`}>{a.supply}</td>
                  <td className={`${td} tabular`}>{fen(a.priceFen)}</td>
                  <td className={`${td} tabular`}>{a.accountId}</td>
                  <td className={`${td} tabular whitespace-nowrap`}>{when(a.createdAt)}</td>
                  <td className={td}>
                    <Badge tone={tone(a.status)}>{t(`applications.status.${a.status}`)}</Badge>
                  </td>
                  <td className={td}>
                    <button
                      type="button"
                      className="text-brand hover:underline"
                      onClick={() => {
                        const p = new URLSearchParams(params);
                        p.set('id', String(a.id));
                        setParams(p);
                      }}
                      data-testid="admin-application-open"
                    >
                      {t('common.details')}
                    </button>
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} total={d.total} pageSize={PAGE_SIZE} />
          </>
        )}
      </QueryState>
    </>
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
