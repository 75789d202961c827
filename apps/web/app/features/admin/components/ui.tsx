import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { AdminPermission } from '@cfx/contract/admin-rules.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatCnDateTime as formatDateTime } from '../../../components/ui/cn-time.ts';
import { useToastStore } from '../../../stores/toast.ts';
import { useAdminT } from '../i18n.ts';
import { useCan } from '../session.ts';

/** Money as ￥1,234.56 (integer fen in). */
export const fen = (v: number | null | undefined) => formatFen(v ?? 0);
/** China time, yyyy-MM-dd HH:mm:ss; '—' when missing. */
export const when = (ms: number | null | undefined) => formatDateTime(ms) || '—';

/** An action's result, visible for a few seconds at the top (success or the server's reason). */
export const notify = {
  ok: (text: string) => useToastStore.getState().push('success', text, { durationMs: 4000 }),
  fail: (text: string) => useToastStore.getState().push('error', text, { closable: true, durationMs: 8000 }),
};

/** A console page: its title, and a refusal instead of the content when the role lacks `permission`. */
export function AdminPage({ title, permission, actions, children, testId }: { title: string; permission: AdminPermission | null; actions?: ReactNode; children: ReactNode; testId: string }) {
  const t = useAdminT();
  const can = useCan();
  return (
    <section data-testid={testId} className="min-w-0">
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold text-ink">{title}</h1>
        {actions}
      </div>
      {permission && !can(permission) ? (
        <p className="card p-8 text-center text-ink-faint" data-testid="admin-no-permission">
          {t('common.noPermission')}
        </p>
      ) : (
        children
      )}
    </section>
  );
}

/** Loading, error (with retry) and empty states around a query's data. */
export function QueryState<T>({ q, isEmpty, children }: { q: UseQueryResult<T>; isEmpty?: (d: T) => boolean; children: (d: T) => ReactNode }) {
  const t = useAdminT();
  if (q.isPending) {
    return (
      <div className="flex items-center justify-center gap-2 py-12 text-ink-faint" role="status" data-testid="admin-loading">
        <Spinner /> {t('common.loading')}
      </div>
    );
  }
  if (q.isError) {
    return (
      <div className="py-10 text-center" role="alert" data-testid="admin-error">
        <p className="text-danger">{(q.error as Error).message || t('common.loadFailed')}</p>
        <button type="button" className="btn-ghost mt-3" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const data = q.data as T;
  if (isEmpty?.(data)) {
    return (
      <p className="py-12 text-center text-ink-faint" data-testid="admin-empty">
        {t('common.empty')}
      </p>
    );
  }
  return <>{children(data)}</>;
}

export function Badge({ tone = 'neutral', children, testId }: { tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info'; children: ReactNode; testId?: string }) {
  const cls = {
    neutral: 'bg-canvas text-ink-soft',
    good: 'bg-green-50 text-success',
    warn: 'bg-amber-50 text-warning',
    bad: 'bg-red-50 text-danger',
    info: 'bg-brand-soft text-brand',
  }[tone];
  return (
    <span className={`inline-flex items-center rounded px-2 py-0.5 text-xs font-medium ${cls}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** A label / value grid for detail panels. */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-ink-faint">{k}</dt>
          <dd className="min-w-0 break-words text-ink">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export const th = 'whitespace-nowrap px-3 py-2 text-left text-xs font-medium text-ink-faint';
export const td = 'px-3 py-2 align-top';

/** A table in a card that scrolls sideways on narrow screens. */
export function Table({ head, children, testId }: { head: ReactNode[]; children: ReactNode; testId?: string }) {
  return (
    <div className="card overflow-x-auto">
      <table className="w-full min-w-[720px] text-sm" data-testid={testId}>
        <thead className="border-b border-line bg-canvas/60">
          <tr>
            {head.map((h, i) => (
              <th key={i} className={th}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{children}</tbody>
      </table>
    </div>
  );
}

/** Tabs as buttons (the filter lives in the URL). */
export function Tabs<V extends string>({ value, options, onChange, testId }: { value: V; options: { value: V; label: string }[]; onChange: (v: V) => void; testId: string }) {
  return (
    <div className="mb-4 flex flex-wrap gap-2" role="tablist" data-testid={testId}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="tab"
          aria-selected={o.value === value}
          data-testid={`${testId}-${o.value || 'all'}`}
          onClick={() => onChange(o.value)}
          className={`rounded-full px-3 py-1 text-sm ${o.value === value ? 'bg-brand text-white' : 'bg-surface text-ink-soft hover:text-brand'}`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
