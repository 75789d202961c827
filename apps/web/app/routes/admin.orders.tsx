import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminOrderDetail, AdminOrderRow, Page } from '@cfx/contract/admin.ts';
import { adminApi, adminData } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { AdminPage, Badge, Facts, fen, notify, QueryState, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { useCan } from '../features/admin/session.ts';
import { AdminList } from '../features/admin/components/admin-list-page.tsx';

const STATUSES = ['created', 'paying', 'paid', 'settling', 'completed', 'cancelled', 'expired', 'refunded'] as const;
const KINDS = ['market', 'bid', 'drop'] as const;
type Status = (typeof STATUSES)[number];
const tone = (s: Status) => (s === 'completed' ? 'good' : s === 'refunded' || s === 'cancelled' || s === 'expired' ? 'neutral' : s === 'paid' || s === 'settling' ? 'info' : 'warn');

/** Orders (finance, support): search; one order with its timeline, payments and ledger; cancel / refund (finance). */
export default function AdminOrders() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const no = params.get('no');
  return (
    <AdminPage title={t('orders.title')} permission="orders.read" testId="admin-orders">
      {no ? (
        <OrderDetail
          orderNo={no}
          onBack={() => {
            const p = new URLSearchParams(params);
            p.delete('no');
            setParams(p);
          }}
        />
      ) : (
        <OrderList />
      )}
    </AdminPage>
  );
}

function OrderList() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  const user = params.get('user') ?? '';
  const status = params.get('status') ?? '';
  const kind = params.get('kind') ?? '';
  const filters = (
    <>
      <form
        className="mb-4 flex flex-wrap items-center gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const next = new URLSearchParams();
          for (const k of ['orderNo', 'user', 'status', 'kind']) {
            const v = String(f.get(k) ?? '').trim();
            if (v) next.set(k, v);
          }
          setParams(next);
        }}
      >
        <input name="orderNo" defaultValue={orderNo} key={`o${orderNo}`} placeholder={t('orders.orderNo')} className="field-input h-10 w-56" data-testid="admin-orders-no" />
        <input name="user" defaultValue={user} key={`u${user}`} placeholder={t('orders.userPlaceholder')} className="field-input h-10 w-72" data-testid="admin-orders-user" />
        <select name="status" defaultValue={status} key={`s${status}`} aria-label={t('common.status')} className="field-input h-10 w-36" data-testid="admin-orders-status">
          <option value="">{t('orders.allStatuses')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`orders.statuses.${s}`)}
            </option>
          ))}
        </select>
        <select name="kind" defaultValue={kind} key={`k${kind}`} aria-label={t('orders.kind')} className="field-input h-10 w-32">
          <option value="">{t('orders.allKinds')}</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`orders.kinds.${k}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-primary" data-testid="admin-orders-search">
          {t('common.search')}
        </button>
      </form>
    </>
  );
  return (
    <AdminList<AdminOrderRow>
      queryKey={['admin', 'orders', orderNo, user, status, kind]}
      load={(page, pageSize) => adminData<Page<AdminOrderRow>>(AdminPaths.ordersSearch, { orderNo, user, status: status || null, kind: kind || null, pageNum: page, pageSize })}
      showTotal
      filters={filters}
      idOf={(o) => o.orderNo}
      rowAttrs={(o) => ({ 'data-order-no': o.orderNo })}
      onOpen={(o) => {
        const p = new URLSearchParams(params);
        p.set('no', o.orderNo);
        setParams(p);
      }}
      testIds={{ table: 'admin-orders-table', row: 'admin-order-row', open: 'admin-order-open' }}
      columns={[
        { head: t('orders.orderNo'), cell: (o) => o.orderNo, className: 'tabular' },
        { head: t('orders.kind'), cell: (o) => t(`orders.kinds.${o.kind}`) },
        { head: t('orders.item'), cell: (o) => o.title },
        { head: t('orders.price'), cell: (o) => fen(o.priceFen), className: 'tabular' },
        { head: t('orders.buyer'), cell: (o) => o.buyerNickname },
        { head: t('orders.seller'), cell: (o) => o.sellerNickname },
        { head: t('orders.createdAt'), cell: (o) => when(o.createdAt), className: 'tabular whitespace-nowrap' },
        { head: t('common.status'), cell: (o) => <Badge tone={tone(o.status)}>{t(`orders.statuses.${o.status}`)}</Badge> },
      ]}
    />
  );
}

function OrderDetail({ orderNo, onBack }: { orderNo: string; onBack: () => void }) {
  const t = useAdminT();
  const can = useCan();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'order', orderNo], queryFn: () => adminData<AdminOrderDetail>(AdminPaths.orderDetail, { orderNo }) });
  const [dialog, setDialog] = useState<'cancel' | 'refund' | null>(null);

  const act = async (kind: 'cancel' | 'refund', reason: string) => {
    const r = await adminApi<AdminOrderDetail>(kind === 'cancel' ? AdminPaths.orderCancel : AdminPaths.orderRefund, { orderNo, reason });
    if (!r.ok) return r.message;
    client.setQueryData(['admin', 'order', orderNo], r.data);
    void client.invalidateQueries({ queryKey: ['admin', 'orders'] });
    notify.ok(r.message);
    return null;
  };

  return (
    <div data-testid="admin-order-detail">
      <button type="button" className="mb-4 text-sm text-brand hover:underline" onClick={onBack}>
        ← {t('common.back')}
      </button>
      <QueryState q={q}>
        {(o) => (
          <div className="space-y-4">
            <div className="card p-5">
              <div className="mb-4 flex flex-wrap items-center gap-3">
                <h2 className="tabular text-lg font-semibold text-ink">{o.orderNo}</h2>
                <Badge tone={tone(o.status)} testId="admin-order-status">
                  {t(`orders.statuses.${o.status}`)}
                </Badge>
              </div>
              <Facts
                rows={[
                  [t('orders.kind'), t(`orders.kinds.${o.kind}`)],
                  [t('orders.item'), o.title],
                  [t('orders.price'), fen(o.priceFen)],
                  [t('orders.commission'), fen(o.commissionFen)],
                  [t('orders.royalty'), fen(o.royaltyFen)],
                  [t('orders.sellerIncome'), fen(o.sellerIncomeFen)],
                  [t('orders.buyer'), `${o.buyerNickname} (#${o.buyerId})`],
                  [t('orders.seller'), `${o.sellerNickname} (#${o.sellerId})`],
                  [t('orders.payMethod'), o.payMethod ?? '—'],
                  [t('orders.createdAt'), when(o.createdAt)],
                  [t('orders.paidAt'), when(o.paidAt)],
                  ...(o.failReason ? ([[t('orders.failReason'), o.failReason]] as [string, string][]) : []),
                  ...(o.txHash ? ([[t('orders.txHash'), <span key="h" className="break-all font-mono text-xs">{o.txHash}</span>]] as [string, React.ReactNode][]) : []),
                ]}
              />
              {can('orders.act') && (o.canCancel || o.canRefund) && (
                <div className="mt-5 flex gap-3">
                  {o.canCancel && (
                    <button type="button" className="btn-ghost" onClick={() => setDialog('cancel')} data-testid="admin-order-cancel">
                      {t('orders.cancel')}
                    </button>
                  )}
                  {o.canRefund && (
                    <button type="button" className="btn bg-danger text-white hover:opacity-90" onClick={() => setDialog('refund')} data-testid="admin-order-refund">
                      {t('orders.refund')}
                    </button>
                  )}
                </div>
              )}
            </div>
            <div className="grid gap-4 lg:grid-cols-2">
              <div className="card p-5">
                <h3 className="mb-3 text-sm font-semibold text-ink">{t('orders.timeline')}</h3>
                <ol className="space-y-2 text-sm" data-testid="admin-order-events">
                  {o.events.map((e, i) => (
                    <li key={i}>
                      <span className="tabular text-xs text-ink-faint">{when(e.at)}</span>{' '}
                      <span className="text-ink">{t(`orders.statuses.${e.to as Status}`)}</span>
                      {e.note && <span className="text-ink-soft"> · {e.note}</span>}
                    </li>
                  ))}
                </ol>
                {o.payments.length > 0 && (
                  <>
                    <h3 className="mb-2 mt-5 text-sm font-semibold text-ink">{t('orders.payments')}</h3>
                    <ul className="space-y-1 text-sm">
                      {o.payments.map((p) => (
                        <li key={`${p.provider}${p.tradeNo}`} className="tabular">
                          {when(p.at)} · {p.provider} · {fen(p.amountFen)} · {p.outcome}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </div>
              <div className="card p-5">
                <h3 className="mb-3 text-sm font-semibold text-ink">{t('orders.ledger')}</h3>
                {o.ledger.length === 0 ? (
                  <p className="text-sm text-ink-faint">{t('common.empty')}</p>
                ) : (
                  <ul className="space-y-3 text-sm" data-testid="admin-order-ledger">
                    {o.ledger.map((x) => (
                      <li key={x.id}>
                        <p className="font-mono text-xs text-ink-soft">
                          {x.id} · {when(x.at)}
                        </p>
                        <table className="mt-1 w-full text-xs">
                          <tbody>
                            {x.entries.map((e) => (
                              <tr key={e.account}>
                                <td className="py-0.5 font-mono text-ink-soft">{e.account}</td>
                                <td className={`tabular py-0.5 text-right ${e.amountFen < 0 ? 'text-danger' : 'text-success'}`}>{fen(e.amountFen)}</td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </div>
            <ConfirmDialog
              open={dialog === 'cancel'}
              onClose={() => setDialog(null)}
              title={t('orders.cancelTitle', { no: o.orderNo })}
              intro={t('orders.cancelIntro')}
              confirmLabel={t('orders.cancel')}
              reason
              testId="admin-order-cancel-dialog"
              onConfirm={(reason) => act('cancel', reason)}
            />
            <ConfirmDialog
              open={dialog === 'refund'}
              onClose={() => setDialog(null)}
              title={t('orders.refundTitle', { no: o.orderNo })}
              intro={t('orders.refundIntro')}
              confirmLabel={t('orders.refund')}
              reason
              danger
              testId="admin-order-refund-dialog"
              onConfirm={(reason) => act('refund', reason)}
            />
          </div>
        )}
      </QueryState>
    </div>
  );
}
