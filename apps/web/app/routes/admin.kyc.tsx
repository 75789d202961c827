import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminKycRow, Page } from '@cfx/contract/admin.ts';
import { Pager } from '../components/ui/pager.tsx';
import { adminApi, adminData } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { AdminPage, notify, QueryState, Table, Tabs, td, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { useCan } from '../features/admin/session.ts';

const PAGE_SIZE = 20;

/** Real-name verifications (reviewers): masked data only; revoke with a reason (the user must verify again). */
export default function AdminKyc() {
  const t = useAdminT();
  const can = useCan();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') === 'revoked' ? 'revoked' : 'verified';
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = useQuery({
    queryKey: ['admin', 'kyc', status, q, page],
    queryFn: () => adminData<Page<AdminKycRow>>(AdminPaths.kycList, { status, q, pageNum: page, pageSize: PAGE_SIZE }),
  });
  const [target, setTarget] = useState<AdminKycRow | null>(null);

  const revoke = async (reason: string) => {
    const r = await adminApi(AdminPaths.kycRevoke, { userId: target!.userId, reason });
    if (!r.ok) return r.message;
    void client.invalidateQueries({ queryKey: ['admin', 'kyc'] });
    notify.ok(r.message);
    return null;
  };

  return (
    <AdminPage title={t('kyc.title')} permission="kyc.read" testId="admin-kyc">
      <Tabs
        value={status}
        testId="admin-kyc-tabs"
        options={[
          { value: 'verified', label: t('kyc.verified') },
          { value: 'revoked', label: t('kyc.revoked') },
        ]}
        onChange={(v) => setParams(q ? { status: v, q } : { status: v })}
      />
      <form
        className="mb-4 flex gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const text = String(new FormData(e.currentTarget).get('q') ?? '').trim();
          setParams(text ? { status, q: text } : { status });
        }}
      >
        <input name="q" defaultValue={q} key={q} placeholder={t('kyc.searchPlaceholder')} className="field-input h-10 max-w-sm" data-testid="admin-kyc-q" />
        <button type="submit" className="btn-primary">
          {t('common.search')}
        </button>
      </form>
      <QueryState q={query} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            <Table
              head={
                status === 'verified'
                  ? [t('users.accountId'), t('users.nickname'), t('kyc.name'), t('kyc.idNumber'), t('kyc.provider'), t('kyc.verifiedAt'), '']
                  : [t('users.accountId'), t('users.nickname'), t('kyc.name'), t('kyc.idNumber'), t('kyc.revokedAt'), t('kyc.revokedBy'), t('common.reason')]
              }
              testId="admin-kyc-table"
            >
              {d.list.map((r) => (
                <tr key={`${r.userId}-${r.revokedAt ?? r.verifiedAt}`} data-testid="admin-kyc-row">
                  <td className={`${td} tabular`}>{r.accountId}</td>
                  <td className={td}>{r.nickname}</td>
                  <td className={td}>{r.nameMasked}</td>
                  <td className={`${td} tabular`}>{r.idMasked}</td>
                  {status === 'verified' ? (
                    <>
                      <td className={td}>{r.provider}</td>
                      <td className={`${td} tabular whitespace-nowrap`}>{when(r.verifiedAt)}</td>
                      <td className={td}>
                        {can('kyc.revoke') && (
                          <button type="button" className="text-danger hover:underline" onClick={() => setTarget(r)} data-testid="admin-kyc-revoke">
                            {t('kyc.revoke')}
                          </button>
                        )}
                      </td>
                    </>
                  ) : (
                    <>
                      <td className={`${td} tabular whitespace-nowrap`}>{when(r.revokedAt)}</td>
                      <td className={td}>{r.revokedBy}</td>
                      <td className={td}>{r.reason}</td>
                    </>
                  )}
                </tr>
              ))}
            </Table>
            <Pager page={page} total={d.total} pageSize={PAGE_SIZE} />
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={target !== null}
        onClose={() => setTarget(null)}
        title={t('kyc.revokeTitle', { name: target?.nickname ?? '' })}
        intro={t('kyc.revokeIntro')}
        confirmLabel={t('kyc.revoke')}
        reason
        danger
        testId="admin-kyc-dialog"
        onConfirm={revoke}
      />
    </AdminPage>
  );
}
