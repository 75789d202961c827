import { useSearchParams } from 'react-router';
import { DAY_MS, parseChinaDateTime } from '@cfx/protocol/china-time.ts';
import { useQuery } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AuditRow, Page } from '@cfx/contract/admin.ts';
import { Pager } from '../components/ui/pager.tsx';
import { adminData } from '../features/admin/api.ts';
import { AdminPage, QueryState, Table, td, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';

const PAGE_SIZE = 50;
const FILTERS = ['staffId', 'action', 'targetType', 'targetId', 'from', 'to'] as const;
/** A yyyy-MM-dd day (China time) as epoch ms of its start; `end` gives the next day's start. */
/** A day picked in the filter (yyyy-MM-dd, China time) as its start, or the next day's start for `end`. */
const dayMs = (d: string, end = false) => {
  const start = d ? parseChinaDateTime(d) : null;
  return start === null ? undefined : start + (end ? DAY_MS : 0);
};

/** The audit log (owners): every staff action, newest first, filterable by staff, action, target and days. */
export default function AdminAudit() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const f = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const q = useQuery({
    queryKey: ['admin', 'audit', f, page],
    queryFn: () =>
      adminData<Page<AuditRow>>(AdminPaths.auditList, {
        staffId: f.staffId ? Number(f.staffId) : null,
        action: f.action,
        targetType: f.targetType,
        targetId: f.targetId,
        from: dayMs(f.from) ?? null,
        to: dayMs(f.to, true) ?? null,
        pageNum: page,
        pageSize: PAGE_SIZE,
      }),
  });
  const input = 'field-input h-9';
  return (
    <AdminPage title={t('audit.title')} permission="audit.read" testId="admin-audit">
      <form
        className="mb-4 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          const next = new URLSearchParams();
          for (const k of FILTERS) {
            const v = String(data.get(k) ?? '').trim();
            if (v) next.set(k, v);
          }
          setParams(next);
        }}
      >
        <label className="flex flex-col gap-1 text-xs text-ink-faint">
          {t('audit.staffId')}
          <input name="staffId" inputMode="numeric" defaultValue={f.staffId} key={`s${f.staffId}`} className={`${input} w-24`} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-ink-faint">
          {t('audit.action')}
          <input name="action" defaultValue={f.action} key={`a${f.action}`} placeholder={t('audit.actionPlaceholder')} className={`${input} w-64`} data-testid="admin-audit-action" />
        </label>
        <label className="flex flex-col gap-1 text-xs text-ink-faint">
          {t('audit.targetType')}
          <input name="targetType" defaultValue={f.targetType} key={`y${f.targetType}`} className={`${input} w-28`} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-ink-faint">
          {t('audit.targetId')}
          <input name="targetId" defaultValue={f.targetId} key={`i${f.targetId}`} className={`${input} w-36`} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-ink-faint">
          {t('audit.from')}
          <input name="from" type="date" defaultValue={f.from} key={`f${f.from}`} className={`${input} w-40`} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-ink-faint">
          {t('audit.to')}
          <input name="to" type="date" defaultValue={f.to} key={`t${f.to}`} className={`${input} w-40`} />
        </label>
        <button type="submit" className="btn-primary h-9" data-testid="admin-audit-search">
          {t('common.search')}
        </button>
        <button type="button" className="btn-ghost h-9" onClick={() => setParams({})}>
          {t('common.reset')}
        </button>
      </form>
      <QueryState q={q} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            <p className="mb-2 text-xs text-ink-faint">{t('common.total', { n: d.total })}</p>
            <Table head={[t('common.time'), t('audit.actor'), t('audit.action'), t('audit.target'), t('audit.summary'), t('audit.ip')]} testId="admin-audit-table">
              {d.list.map((r) => (
                <tr key={r.id} data-testid="admin-audit-row" data-action={r.action}>
                  <td className={`${td} tabular whitespace-nowrap`}>{when(r.at)}</td>
                  <td className={td}>{r.actor}</td>
                  <td className={`${td} font-mono text-xs`}>{r.action}</td>
                  <td className={`${td} whitespace-nowrap text-xs`}>
                    {r.targetType}
                    {r.targetId ? ` #${r.targetId}` : ''}
                  </td>
                  <td className={`${td} max-w-md break-all font-mono text-xs text-ink-soft`}>{JSON.stringify(r.summary)}</td>
                  <td className={`${td} tabular text-xs`}>{r.ip}</td>
                </tr>
              ))}
            </Table>
            <Pager page={page} total={d.total} pageSize={PAGE_SIZE} />
          </>
        )}
      </QueryState>
    </AdminPage>
  );
}
