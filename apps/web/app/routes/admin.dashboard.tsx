import { Link, useSearchParams } from 'react-router';
import { DAY_MS as DAY, formatChinaDate } from '@cfx/protocol/china-time.ts';
import { useQuery } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { SalesReport } from '@cfx/contract/admin.ts';
import { adminData } from '../features/admin/api.ts';
import { SalesCharts } from '../features/admin/components/sales-charts.tsx';
import { AdminPage, fen, QueryState, Table, td } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { visibleNav } from '../features/admin/nav.ts';
import { useCan, useStaffStore } from '../features/admin/session.ts';

/** Today in China time, yyyy-MM-dd. */
const cnDay = formatChinaDate;

/** The console's first page: who is signed in, shortcuts, and — for finance and owners — the sales charts. */
export default function AdminDashboard() {
  const t = useAdminT();
  const me = useStaffStore((s) => s.me)!;
  const can = useCan();
  return (
    <AdminPage title={t('dashboard.title')} permission={null} testId="admin-dashboard">
      <div className="card mb-6 p-5">
        <p className="text-lg text-ink">{t('dashboard.welcome', { name: me.username })}</p>
        <p className="mt-1 text-sm text-ink-faint">{t('dashboard.yourRoles', { roles: me.roles.map((r) => t(`roles.${r}`)).join(' / ') })}</p>
        <div className="mt-4 flex flex-wrap gap-2">
          {visibleNav(me.permissions)
            .filter((n) => n.to !== '/admin')
            .map((n) => (
              <Link key={n.to} to={n.to} className="btn-ghost h-8">
                {t(n.label)}
              </Link>
            ))}
        </div>
      </div>
      {can('sales.read') && <Sales />}
    </AdminPage>
  );
}

function Sales() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const today = cnDay(Date.now());
  const to = params.get('to') ?? today;
  const from = params.get('from') ?? cnDay(Date.now() - 29 * DAY);
  const q = useQuery({ queryKey: ['admin', 'sales', from, to], queryFn: () => adminData<SalesReport>(AdminPaths.sales, { from, to }) });
  const preset = (days: number) => setParams({ from: cnDay(Date.now() - (days - 1) * DAY), to: today });
  return (
    <section data-testid="admin-sales">
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <h2 className="mr-auto text-lg font-semibold text-ink">{t('dashboard.salesTitle')}</h2>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            setParams({ from: String(f.get('from')), to: String(f.get('to')) });
          }}
        >
          <label className="flex flex-col gap-1 text-xs text-ink-faint">
            {t('dashboard.from')}
            <input name="from" type="date" defaultValue={from} key={`f${from}`} className="field-input h-9 w-40" data-testid="admin-sales-from" />
          </label>
          <label className="flex flex-col gap-1 text-xs text-ink-faint">
            {t('dashboard.to')}
            <input name="to" type="date" defaultValue={to} key={`t${to}`} className="field-input h-9 w-40" data-testid="admin-sales-to" />
          </label>
          <button type="submit" className="btn-primary h-9" data-testid="admin-sales-apply">
            {t('dashboard.apply')}
          </button>
        </form>
        <div className="flex gap-2">
          {([7, 30, 90] as const).map((d) => (
            <button key={d} type="button" className="btn-ghost h-9" onClick={() => preset(d)}>
              {t(d === 7 ? 'dashboard.last7' : d === 30 ? 'dashboard.last30' : 'dashboard.last90')}
            </button>
          ))}
        </div>
      </div>
      <QueryState q={q}>
        {(r) => (
          <>
            <div className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="admin-sales-totals">
              {(
                [
                  ['dashboard.gmv', fen(r.totals.gmvFen), 'gmv'],
                  ['dashboard.orders', String(r.totals.orders), 'orders'],
                  ['dashboard.primary', fen(r.totals.primaryFen), 'primary'],
                  ['dashboard.resale', fen(r.totals.resaleFen), 'resale'],
                  ['dashboard.commission', fen(r.totals.commissionFen), 'commission'],
                ] as const
              ).map(([label, value, id]) => (
                <div key={id} className="card p-4">
                  <p className="text-xs text-ink-faint">{t(label)}</p>
                  <p className="tabular mt-1 text-lg font-semibold text-ink" data-testid={`admin-sales-${id}`}>
                    {value}
                  </p>
                </div>
              ))}
            </div>
            {r.totals.orders === 0 && r.totals.commissionFen === 0 ? (
              <p className="card p-8 text-center text-ink-faint" data-testid="admin-sales-empty">
                {t('dashboard.noSales')}
              </p>
            ) : (
              <SalesCharts days={r.days} />
            )}
            <p className="mt-3 text-xs text-ink-faint">{t('dashboard.rangeNote')}</p>
            <div className="mt-4">
              <Table head={[t('dashboard.day'), t('dashboard.orders'), t('dashboard.gmv'), t('dashboard.primary'), t('dashboard.resale'), t('dashboard.commission')]} testId="admin-sales-table">
                {[...r.days].reverse().map((d) => (
                  <tr key={d.day}>
                    <td className={td}>{d.day}</td>
                    <td className={`${td} tabular`}>{d.orders}</td>
                    <td className={`${td} tabular`}>{fen(d.gmvFen)}</td>
                    <td className={`${td} tabular`}>{fen(d.primaryFen)}</td>
                    <td className={`${td} tabular`}>{fen(d.resaleFen)}</td>
                    <td className={`${td} tabular`}>{fen(d.commissionFen)}</td>
                  </tr>
                ))}
              </Table>
            </div>
          </>
        )}
      </QueryState>
    </section>
  );
}
