import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminWithdrawalRow, Page } from '@cfx/contract/admin.ts';
import { Pager } from '../components/ui/pager.tsx';
import { adminApi, adminData } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { AdminPage, Badge, fen, notify, QueryState, Table, Tabs, td, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { useCan } from '../features/admin/session.ts';

const PAGE_SIZE = 20;
const STATUSES = ['requested', 'processing', 'succeeded', 'failed'] as const;
type Status = (typeof STATUSES)[number];
const tone = (s: Status) => (s === 'succeeded' ? 'good' : s === 'failed' ? 'bad' : 'info');

/** Withdrawals (finance): looked up by status; one stuck in `requested` can be submitted to the provider again. */
export default function AdminWithdrawals() {
  const t = useAdminT();
  const can = useCan();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? '') as Status | '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    queryKey: ['admin', 'withdrawals', status, page],
    queryFn: () => adminData<Page<AdminWithdrawalRow>>(AdminPaths.withdrawalsList, { status: status || null, pageNum: page, pageSize: PAGE_SIZE }),
  });
  const [retry, setRetry] = useState<string | null>(null);
  const resubmit = async () => {
    const r = await adminApi<AdminWithdrawalRow>(AdminPaths.withdrawalRetry, { withdrawNo: retry });
    if (!r.ok) return r.message;
    void client.invalidateQueries({ queryKey: ['admin', 'withdrawals'] });
    notify.ok(r.message);
    return null;
  };
  return (
    <AdminPage title={t('withdrawals.title')} permission="withdrawals.read" testId="admin-withdrawals">
      <p className="mb-4 text-sm text-ink-faint">{t('withdrawals.note')}</p>
      <Tabs
        value={status}
        testId="admin-withdrawals-tabs"
        options={[{ value: '' as Status | '', label: t('common.all') }, ...STATUSES.map((s) => ({ value: s as Status | '', label: t(`withdrawals.statuses.${s}`) }))]}
        onChange={(v) => setParams(v ? { status: v } : {})}
      />
      <QueryState q={q} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            <Table
              head={[t('withdrawals.withdrawNo'), t('withdrawals.user'), t('withdrawals.amount'), t('withdrawals.fee'), t('withdrawals.net'), t('withdrawals.bank'), t('withdrawals.createdAt'), t('common.status'), t('withdrawals.failReason'), '']}
              testId="admin-withdrawals-table"
            >
              {d.list.map((w) => (
                <tr key={w.withdrawNo} data-testid="admin-withdrawal-row">
                  <td className={`${td} tabular`}>{w.withdrawNo}</td>
                  <td className={td}>
                    {w.nickname} <span className="text-xs text-ink-faint">#{w.userId}</span>
                  </td>
                  <td className={`${td} tabular`}>{fen(w.amountFen)}</td>
                  <td className={`${td} tabular`}>{fen(w.feeFen)}</td>
                  <td className={`${td} tabular`}>{fen(w.netFen)}</td>
                  <td className={td}>
                    {w.bankName} {w.cardMasked}
                  </td>
                  <td className={`${td} tabular whitespace-nowrap`}>{when(w.createdAt)}</td>
                  <td className={td}>
                    <Badge tone={tone(w.status)}>{t(`withdrawals.statuses.${w.status}`)}</Badge>
                  </td>
                  <td className={td}>{w.failReason ?? ''}</td>
                  <td className={td}>
                    {w.status === 'requested' && can('withdrawals.act') && (
                      <button type="button" className="text-brand hover:underline" onClick={() => setRetry(w.withdrawNo)} data-testid="admin-withdrawal-retry">
                        {t('withdrawals.retry')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} total={d.total} pageSize={PAGE_SIZE} />
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={retry !== null}
        onClose={() => setRetry(null)}
        title={t('withdrawals.retryTitle', { no: retry ?? '' })}
        intro={t('withdrawals.retryIntro')}
        confirmLabel={t('withdrawals.retry')}
        testId="admin-withdrawal-retry-dialog"
        onConfirm={resubmit}
      />
    </AdminPage>
  );
}
