import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { AdminPermission } from '@cfx/contract/admin-rules.ts';
import type { Page } from '@cfx/contract/admin.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { useDetailId } from '../detail-param.ts';
import { useAdminT } from '../i18n.ts';
import { AdminPage, QueryState, Table, td } from './ui.tsx';

/** One column of a console list: its header, its cell, and extra classes of the cell (`tabular`, `whitespace-nowrap`). */
export interface AdminColumn<Row> {
  head: string;
  cell: (row: Row) => ReactNode;
  className?: string;
  /** A test id on the cell. */
  testId?: string;
}

/** The list half of a console list/detail page (see AdminList). */
export interface AdminListProps<Row extends object> {
  /** The react-query key before the page number (filters included, e.g. ['admin', 'users', q, frozen]). */
  queryKey: readonly unknown[];
  /** Loads one page (1-based) of `pageSize` rows. */
  load: (page: number, pageSize: number) => Promise<Page<Row>>;
  columns: AdminColumn<Row>[];
  /** Test ids: the table, each row (`data-id` carries the row id unless `rowAttrs` says otherwise), each row's open button. */
  testIds: { table: string; row: string; open: string };
  /** Extra attributes of a row (e.g. `data-user-id`). */
  rowAttrs?: (row: Row) => Record<`data-${string}`, string | number>;
  /** The filters above the table (tabs or a search form); they write the URL's search params. */
  filters?: ReactNode;
  /** Shows 共 N 条 above the table. */
  showTotal?: boolean;
  pageSize?: number;
  /** The open button's text (详情 by default) and what it does (by default `?id=` added to the current params). */
  openLabel?: string;
  onOpen?: (row: Row) => void;
  /** The row's key (its `id` by default; e.g. an order number). */
  idOf?: (row: Row) => string | number;
}

const defaultId = (row: object) => (row as { id: number }).id;

/**
 * The console's list: filters, the table with a 详情 button per row (opens `?id=`, the detail), the
 * pager (`?page=`), and loading / error / empty states. Generic over the row type: columns are typed.
 */
export function AdminList<Row extends object>({ queryKey, load, columns, testIds, rowAttrs, filters, showTotal = false, pageSize = 20, openLabel, onOpen, idOf = defaultId }: AdminListProps<Row>) {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = useQuery({ queryKey: [...queryKey, page], queryFn: () => load(page, pageSize) });
  const open = (id: string | number) => {
    const p = new URLSearchParams(params);
    p.set('id', String(id));
    setParams(p);
  };
  return (
    <>
      {filters}
      <QueryState q={query} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            {showTotal && <p className="mb-2 text-xs text-ink-faint">{t('common.total', { n: d.total })}</p>}
            <Table head={[...columns.map((c) => c.head), '']} testId={testIds.table}>
              {d.list.map((row) => (
                <tr key={idOf(row)} data-testid={testIds.row} {...(rowAttrs ? rowAttrs(row) : { 'data-id': idOf(row) })}>
                  {columns.map((c, i) => (
                    <td key={i} className={c.className ? `${td} ${c.className}` : td} data-testid={c.testId}>
                      {c.cell(row)}
                    </td>
                  ))}
                  <td className={td}>
                    <button type="button" className="text-brand hover:underline" onClick={() => (onOpen ? onOpen(row) : open(idOf(row)))} data-testid={testIds.open}>
                      {openLabel ?? t('common.details')}
                    </button>
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} total={d.total} pageSize={pageSize} />
          </>
        )}
      </QueryState>
    </>
  );
}

/**
 * A console list/detail page: the list, or — while `?id=` names a row — its detail with a way back
 * (other params kept). `list` and `detail` are the page's own parts (AdminList for the list).
 */
export function AdminListPage({
  title,
  permission,
  testId,
  list,
  detail,
}: {
  title: string;
  permission: AdminPermission | null;
  testId: string;
  list: ReactNode;
  detail: (id: number, back: () => void) => ReactNode;
}) {
  const { id, back } = useDetailId();
  return (
    <AdminPage title={title} permission={permission} testId={testId}>
      {id !== null ? detail(id, back) : list}
    </AdminPage>
  );
}
