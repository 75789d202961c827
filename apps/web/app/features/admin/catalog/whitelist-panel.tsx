import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { WhitelistEntry, WhitelistReport } from '@cfx/contract/admin-catalog.ts';
import type { Page } from '@cfx/contract/admin.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { adminApi, adminData } from '../api.ts';
import { notify, QueryState, Table, td, when } from '../components/ui.tsx';
import { useAdminT } from '../i18n.ts';

const PAGE = 20;

/**
 * The whitelist of a release: choose a CSV → the server checks it (importWhitelist in dry-run)
 * and every bad line is listed with its number → import (one transaction, idempotent; nothing is
 * imported while a line is wrong). The current size, and a search by phone, account id or
 * nickname (phones masked).
 */
export function WhitelistPanel({ projectId, entries, onChanged }: { projectId: number; entries: number; onChanged: () => void }) {
  const t = useAdminT();
  const client = useQueryClient();
  const [csv, setCsv] = useState<{ name: string; text: string } | null>(null);
  const [replace, setReplace] = useState(false);
  const [report, setReport] = useState<WhitelistReport | null>(null);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);
  const [error, setError] = useState('');
  const [q, setQ] = useState('');
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'whitelist', projectId, term, page],
    queryFn: () => adminData<Page<WhitelistEntry>>(AdminPaths.whitelistList, { projectId, q: term, pageNum: page, pageSize: PAGE }),
  });

  const check = async (text: string, name: string, rep = replace) => {
    setCsv({ name, text });
    setReport(null);
    setError('');
    setBusy('check');
    const r = await adminApi<WhitelistReport>(AdminPaths.whitelistCheck, { projectId, csv: text, replace: rep });
    setBusy(null);
    if (r.ok) setReport(r.data);
    else setError(r.message || t('common.networkError'));
  };
  const doImport = async () => {
    if (!csv) return;
    setBusy('import');
    setError('');
    const r = await adminApi<WhitelistReport>(AdminPaths.whitelistImport, { projectId, csv: csv.text, replace });
    setBusy(null);
    if (!r.ok) {
      setError(r.message);
      return;
    }
    notify.ok(t('whitelist.imported', { added: r.data.added, updated: r.data.updated, unchanged: r.data.unchanged, removed: r.data.removed }));
    setCsv(null);
    setReport(null);
    void client.invalidateQueries({ queryKey: ['admin', 'whitelist', projectId] });
    onChanged();
  };

  return (
    <div className="space-y-4" data-testid="admin-whitelist">
      <p className="text-sm text-ink-faint">{t('whitelist.intro')}</p>
      <p className="font-medium text-ink" data-testid="admin-whitelist-size" data-n={entries}>
        {t('whitelist.size', { n: entries })}
      </p>
      <div className="card space-y-3 p-5">
        <div className="flex flex-wrap items-center gap-4">
          <label className="btn-ghost cursor-pointer">
            {t('whitelist.file')}
            <input
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              className="sr-only"
              onChange={(e) => {
                const f = e.target.files?.[0];
                e.target.value = '';
                if (f) void f.text().then((text) => check(text, f.name));
              }}
              data-testid="admin-whitelist-file"
            />
          </label>
          <label className="flex items-center gap-1.5 text-sm text-ink-soft">
            <input
              type="checkbox"
              checked={replace}
              onChange={(e) => {
                setReplace(e.target.checked);
                if (csv) void check(csv.text, csv.name, e.target.checked);
              }}
              data-testid="admin-whitelist-replace"
            />{' '}
            {t('whitelist.replace')}
          </label>
          {csv && <span className="text-sm text-ink-faint">{csv.name}</span>}
          {busy === 'check' && (
            <span className="text-sm text-ink-faint">
              <Spinner /> {t('whitelist.checking')}
            </span>
          )}
        </div>
        {report && (
          <div data-testid="admin-whitelist-report" data-ok={report.ok ? '1' : '0'}>
            <p className="text-sm text-ink">{t('whitelist.report', { entries: report.entries, added: report.added, updated: report.updated, unchanged: report.unchanged, removed: report.removed })}</p>
            {report.errors.length > 0 && (
              <>
                <p className="mt-2 text-sm text-danger">{t('whitelist.errors', { n: report.errors.length })}</p>
                <ul className="mt-1 max-h-60 overflow-y-auto rounded border border-red-100 bg-red-50/50 text-sm" data-testid="admin-whitelist-errors">
                  {report.errors.map((e) => (
                    <li key={e.line} className="px-3 py-1 text-danger" data-testid="admin-whitelist-error" data-line={e.line}>
                      {e.message}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <button type="button" className="btn-primary mt-3" disabled={!report.ok || busy !== null} onClick={() => void doImport()} data-testid="admin-whitelist-import">
              {busy === 'import' && <Spinner />} {t('whitelist.import')}
            </button>
          </div>
        )}
        {error && (
          <p className="text-sm text-danger" role="alert" data-testid="admin-whitelist-fail">
            {error}
          </p>
        )}
      </div>
      <form
        className="flex flex-wrap gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setTerm(q.trim());
          setPage(1);
        }}
      >
        <input className="field-input h-10 max-w-xs" value={q} placeholder={t('whitelist.searchPlaceholder')} onChange={(e) => setQ(e.target.value)} data-testid="admin-whitelist-q" />
        <button type="submit" className="btn-ghost" data-testid="admin-whitelist-search">
          {t('common.search')}
        </button>
      </form>
      <QueryState q={list} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            <Table head={[t('whitelist.account'), t('whitelist.mobile'), t('whitelist.nickname'), t('whitelist.quota'), t('whitelist.verified'), t('whitelist.updatedAt')]} testId="admin-whitelist-table">
              {d.list.map((w) => (
                <tr key={w.userId} data-testid="admin-whitelist-row" data-account={w.accountId}>
                  <td className={`${td} tabular`}>{w.accountId}</td>
                  <td className={`${td} tabular`}>{w.mobileMasked}</td>
                  <td className={td}>{w.nickname}</td>
                  <td className={`${td} tabular`}>{w.quota}</td>
                  <td className={td}>{w.verified ? t('common.yes') : t('common.no')}</td>
                  <td className={`${td} tabular whitespace-nowrap`}>{when(w.updatedAt)}</td>
                </tr>
              ))}
            </Table>
            <div className="mt-3 flex items-center gap-3 text-sm text-ink-faint">
              <span>{t('common.total', { n: d.total })}</span>
              <button type="button" className="btn-ghost h-8" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                ‹
              </button>
              <span className="tabular">{page}</span>
              <button type="button" className="btn-ghost h-8" disabled={page * PAGE >= d.total} onClick={() => setPage((p) => p + 1)}>
                ›
              </button>
            </div>
          </>
        )}
      </QueryState>
    </div>
  );
}
