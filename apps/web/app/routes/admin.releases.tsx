import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminReleaseDetail, AdminReleaseRow } from '@cfx/contract/admin-catalog.ts';
import type { Page } from '@cfx/contract/admin.ts';
import { adminData } from '../features/admin/api.ts';
import { AdminPage, Badge, fen, QueryState, Tabs, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { BoxEditor } from '../features/admin/catalog/box-editor.tsx';
import { ComposePanel } from '../features/admin/catalog/compose-panel.tsx';
import { PhasesEditor } from '../features/admin/catalog/phases-editor.tsx';
import { ReleaseForm } from '../features/admin/catalog/release-form.tsx';
import { WhitelistPanel } from '../features/admin/catalog/whitelist-panel.tsx';
import { AdminList } from '../features/admin/components/admin-list-page.tsx';

type Status = AdminReleaseRow['status'];
const STATUS_TONE: Record<Status, 'good' | 'info' | 'neutral' | 'warn'> = { on_sale: 'good', upcoming: 'info', sold_out: 'warn', ended: 'neutral' };

/**
 * Releases (operators, owners; docs/admin.md "Releases"): the list with live stock and phases; a
 * release's form, phases and lottery, whitelist and blind-box settings; compose recipes. The URL
 * holds the view (?tab=compose, ?new=1, ?id=…&sub=phases) so a reload keeps it.
 */
export default function AdminReleases() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'compose' ? 'compose' : 'releases';
  const id = Number(params.get('id'));
  const creating = params.get('new') === '1';
  const go = (next: Record<string, string>) => setParams(new URLSearchParams(next));
  return (
    <AdminPage
      title={t('releases.title')}
      permission="catalog.edit"
      testId="admin-releases"
      actions={
        tab === 'releases' && !creating && !id ? (
          <button type="button" className="btn-primary" onClick={() => go({ new: '1' })} data-testid="admin-release-new">
            {t('releases.new')}
          </button>
        ) : undefined
      }
    >
      <Tabs
        value={tab}
        options={[
          { value: 'releases', label: t('releases.tabReleases') },
          { value: 'compose', label: t('releases.tabCompose') },
        ]}
        onChange={(v) => go(v === 'compose' ? { tab: 'compose' } : {})}
        testId="admin-releases-tabs"
      />
      {tab === 'compose' ? (
        <ComposePanel />
      ) : creating ? (
        <div>
          <BackLink onBack={() => go({})} />
          <ReleaseForm onSaved={(d) => go({ id: String(d.id) })} />
        </div>
      ) : Number.isInteger(id) && id > 0 ? (
        <ReleaseDetail id={id} onBack={() => go({})} />
      ) : (
        <ReleaseList />
      )}
    </AdminPage>
  );
}

function BackLink({ onBack }: { onBack: () => void }) {
  const t = useAdminT();
  return (
    <button type="button" className="mb-4 text-sm text-brand hover:underline" onClick={onBack} data-testid="admin-release-back">
      ← {t('releases.back')}
    </button>
  );
}

function ReleaseList() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = (params.get('status') ?? '') as Status | '';
  const setFilter = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    next.delete('page');
    setParams(next);
  };
  const filters = (
    <>
      <form
        className="mb-4 flex flex-wrap items-center gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter('q', String(new FormData(e.currentTarget).get('q') ?? '').trim());
        }}
      >
        <input name="q" defaultValue={q} key={q} placeholder={t('releases.searchPlaceholder')} className="field-input h-10 max-w-xs" data-testid="admin-releases-q" />
        <select className="field-input h-10 w-40" value={status} onChange={(e) => setFilter('status', e.target.value)} data-testid="admin-releases-status">
          <option value="">{t('releases.statusAll')}</option>
          {(['upcoming', 'on_sale', 'sold_out', 'ended'] as const).map((s) => (
            <option key={s} value={s}>
              {t(`releases.status.${s}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-ghost">
          {t('common.search')}
        </button>
      </form>
    </>
  );
  return (
    <AdminList<AdminReleaseRow>
      queryKey={['admin', 'releases', q, status]}
      load={(page, pageSize) => adminData<Page<AdminReleaseRow>>(AdminPaths.releasesList, { q, status: status || null, pageNum: page, pageSize })}
      showTotal
      filters={filters}
      testIds={{ table: 'admin-releases-table', row: 'admin-release-row', open: 'admin-release-open' }}
      rowAttrs={(r) => ({ 'data-id': r.id, 'data-status': r.status })}
      openLabel={t('releases.edit')}
      onOpen={(r) => setParams(new URLSearchParams({ id: String(r.id) }))}
      columns={[
        { head: t('releases.id'), cell: (r) => r.id, className: 'tabular' },
        {
          head: t('releases.name'),
          cell: (r) => (
            <div className="flex items-center gap-2">
              <img src={r.cover} alt="" className="h-9 w-9 shrink-0 rounded object-cover" loading="lazy" />
              <span className="min-w-0">
                <span className="block truncate text-ink">{r.name}</span>
                <span className="block text-xs text-ink-faint">
                  {r.creatorName} · {r.category}
                  {r.role !== 'release' && <> · {t(`releases.role.${r.role}`)}</>}
                </span>
              </span>
            </div>
          ),
        },
        { head: t('common.status'), cell: (r) => <Badge tone={STATUS_TONE[r.status]}>{t(`releases.status.${r.status}`)}</Badge> },
        {
          head: t('releases.stock'),
          className: 'tabular whitespace-nowrap',
          testId: 'admin-release-stock',
          cell: (r) => (
            <>
              {r.stock.taken} / {r.stock.supply}
              <span className="block text-xs text-ink-faint">{t('releases.remaining', { n: r.stock.remaining })}</span>
            </>
          ),
        },
        {
          head: t('releases.phases'),
          className: 'text-xs',
          cell: (r) => (
            <>
              {r.phases.length ? r.phases.map((k) => t(`phases.kinds.${k as 'public'}`)).join(' → ') : <span className="text-ink-faint">{t('releases.noPhases')}</span>}
              {r.currentPhase && <span className="block text-success">{t('releases.currentPhase', { kind: t(`phases.kinds.${r.currentPhase as 'public'}`) })}</span>}
            </>
          ),
        },
        { head: t('releases.price'), cell: (r) => fen(r.priceFen), className: 'tabular' },
        { head: t('releases.saleStart'), cell: (r) => when(r.saleStartAt), className: 'tabular whitespace-nowrap' },
      ]}
    />
  );
}

type Sub = 'info' | 'phases' | 'whitelist' | 'box';

function ReleaseDetail({ id, onBack }: { id: number; onBack: () => void }) {
  const t = useAdminT();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sub = (['info', 'phases', 'whitelist', 'box'].includes(params.get('sub') ?? '') ? params.get('sub') : 'info') as Sub;
  const key = ['admin', 'release', id];
  const q = useQuery({ queryKey: key, queryFn: () => adminData<AdminReleaseDetail>(AdminPaths.releaseDetail, { id }) });
  const saved = (d: AdminReleaseDetail) => {
    client.setQueryData(key, d);
    void client.invalidateQueries({ queryKey: ['admin', 'releases'] });
  };
  return (
    <div data-testid="admin-release-detail" data-id={id}>
      <BackLink onBack={onBack} />
      <QueryState q={q}>
        {(d) => (
          <>
            <div className="mb-4 flex flex-wrap items-center gap-3">
              <h2 className="text-lg font-semibold text-ink" data-testid="admin-release-title">
                {d.name}
              </h2>
              <Badge tone={STATUS_TONE[d.status]} testId="admin-release-status">
                {t(`releases.status.${d.status}`)}
              </Badge>
              <Badge>{t(`releases.role.${d.role}`)}</Badge>
              <span className="text-sm text-ink-faint tabular" data-testid="admin-release-detail-stock">
                {t('releases.stock')} {d.stock.taken} / {d.stock.supply} · {t('releases.orders')} {d.orders}
              </span>
              <a className="text-sm text-brand hover:underline" href={`/projects/dropping/${d.id}`} target="_blank" rel="noreferrer">
                {t('releases.viewPublic')}
              </a>
            </div>
            <Tabs
              value={sub}
              options={[
                { value: 'info', label: t('releases.tabInfo') },
                { value: 'phases', label: t('releases.tabPhases') },
                { value: 'whitelist', label: t('releases.tabWhitelist') },
                { value: 'box', label: t('releases.tabBox') },
              ]}
              onChange={(v) => {
                const next = new URLSearchParams(params);
                next.set('sub', v);
                setParams(next);
              }}
              testId="admin-release-tab"
            />
            {d.role === 'box_items' && <p className="mb-3 text-sm text-ink-faint">{t('releases.itemsOf')}</p>}
            {d.role === 'compose_result' && <p className="mb-3 text-sm text-ink-faint">{t('releases.resultOf')}</p>}
            {sub === 'info' && <ReleaseForm key={`${d.id}:${d.supply}:${d.priceFen}:${d.saleStartAt}:${d.name}`} initial={d} onSaved={saved} />}
            {sub === 'phases' && <PhasesEditor key={JSON.stringify(d.phaseInputs)} release={d} onSaved={saved} />}
            {sub === 'whitelist' && <WhitelistPanel projectId={d.id} entries={d.whitelist.entries} onChanged={() => void client.invalidateQueries({ queryKey: key })} />}
            {sub === 'box' && <BoxEditor key={JSON.stringify(d.box)} release={d} onSaved={saved} />}
          </>
        )}
      </QueryState>
    </div>
  );
}
