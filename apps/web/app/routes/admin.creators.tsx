import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { AdminCreatorDetail, AdminCreatorRow, Page } from '@cfx/contract/admin.ts';
import { CREATOR_LIMITS, MEDIA_TYPES, type MediaType } from '@cfx/contract/creator-rules.ts';
import { adminApi, adminData } from '../features/admin/api.ts';
import { Field, ImageField } from '../features/admin/catalog/fields.tsx';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { Badge, Facts, notify, QueryState, Tabs, when } from '../features/admin/components/ui.tsx';
import { creatorFormOf, creatorFormProblem, creatorPatch, patchChanges, type CreatorForm } from '../features/admin/creator-form.ts';
import { useAdminT } from '../features/admin/i18n.ts';
import { useCan } from '../features/admin/session.ts';
import { AdminList, AdminListPage } from '../features/admin/components/admin-list-page.tsx';

type StateFilter = '' | 'enabled' | 'disabled';

/**
 * Creators (operators edit, reviewers read; docs/admin.md "Creators"): the list with search and
 * filters, one creator's profile to edit, disable / enable with a reason, and the verified mark.
 */
export default function AdminCreators() {
  const t = useAdminT();
  return <AdminListPage title={t('creators.title')} permission="creators.read" testId="admin-creators" list={<CreatorList />} detail={(id, back) => <CreatorDetail id={id} onBack={back} />} />;
}

function CreatorList() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const state = (['enabled', 'disabled'].includes(params.get('state') ?? '') ? params.get('state') : '') as StateFilter;
  const verified = params.get('verified') === '1';
  const set = (k: string, v: string | null) => {
    const p = new URLSearchParams(params);
    if (v) p.set(k, v);
    else p.delete(k);
    p.delete('page');
    setParams(p);
  };
  const filters = (
    <>
      <Tabs
        value={state}
        options={[
          { value: '', label: t('creators.filterAll') },
          { value: 'enabled', label: t('creators.filterEnabled') },
          { value: 'disabled', label: t('creators.filterDisabled') },
        ]}
        onChange={(v) => set('state', v)}
        testId="admin-creators-state"
      />
      <form
        className="mb-4 flex flex-wrap items-center gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const next = new URLSearchParams(params);
          const text = String(f.get('q') ?? '').trim();
          if (text) next.set('q', text);
          else next.delete('q');
          if (f.get('verified')) next.set('verified', '1');
          else next.delete('verified');
          next.delete('page');
          setParams(next);
        }}
      >
        <input name="q" defaultValue={q} key={q} placeholder={t('creators.searchPlaceholder')} className="field-input h-10 max-w-sm" data-testid="admin-creators-q" />
        <label className="flex items-center gap-1.5 text-sm text-ink-soft">
          <input type="checkbox" name="verified" defaultChecked={verified} key={String(verified)} data-testid="admin-creators-verified" /> {t('creators.verifiedOnly')}
        </label>
        <button type="submit" className="btn-primary" data-testid="admin-creators-search">
          {t('common.search')}
        </button>
      </form>
    </>
  );
  return (
    <AdminList<AdminCreatorRow>
      queryKey={['admin', 'creators', q, state, verified]}
      load={(page, pageSize) =>
        adminData<Page<AdminCreatorRow>>(AdminPaths.creatorsList, { q, disabled: state === '' ? null : state === 'disabled', verified: verified ? true : null, pageNum: page, pageSize })
      }
      showTotal
      filters={filters}
      testIds={{ table: 'admin-creators-table', row: 'admin-creator-row', open: 'admin-creator-open' }}
      rowAttrs={(c) => ({ 'data-creator-id': c.id })}
      columns={[
        { head: t('creators.id'), cell: (c) => c.id, className: 'tabular' },
        {
          head: t('creators.name'),
          cell: (c) => (
            <span className="inline-flex items-center gap-2">
              <img src={c.avatar} alt="" className="h-8 w-8 rounded-full border border-line object-cover" />
              {c.name}
            </span>
          ),
        },
        { head: t('creators.accountId'), cell: (c) => c.accountId, className: 'tabular' },
        { head: t('creators.releases'), cell: (c) => c.projectCount, className: 'tabular' },
        { head: t('creators.state'), cell: (c) => <CreatorState c={c} /> },
        { head: t('creators.fromApplication'), cell: (c) => c.applicationId ?? t('creators.noApplication'), className: 'tabular' },
        { head: t('creators.createdAt'), cell: (c) => when(c.createdAt), className: 'tabular whitespace-nowrap' },
      ]}
    />
  );
}

function CreatorState({ c }: { c: Pick<AdminCreatorRow, 'disabledAt' | 'verifiedAt'> }) {
  const t = useAdminT();
  return (
    <span className="inline-flex flex-wrap gap-1.5">
      {c.disabledAt ? (
        <Badge tone="bad" testId="admin-creator-state">
          {t('creators.disabled')}
        </Badge>
      ) : (
        <Badge tone="good" testId="admin-creator-state">
          {t('creators.enabled')}
        </Badge>
      )}
      {c.verifiedAt ? (
        <Badge tone="info" testId="admin-creator-verified">
          {t('creators.verified')}
        </Badge>
      ) : null}
    </span>
  );
}

function CreatorDetail({ id, onBack }: { id: number; onBack: () => void }) {
  const t = useAdminT();
  const can = useCan();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'creator', id], queryFn: () => adminData<AdminCreatorDetail>(AdminPaths.creatorDetail, { id }) });
  const [dialog, setDialog] = useState<'disable' | 'enable' | 'verify' | 'unverify' | null>(null);

  const done = (r: { ok: true; data: AdminCreatorDetail; message: string }) => {
    client.setQueryData(['admin', 'creator', id], r.data);
    void client.invalidateQueries({ queryKey: ['admin', 'creators'] });
    notify.ok(r.message);
  };
  const toggle = async (kind: 'disable' | 'enable', reason: string) => {
    const r = await adminApi<AdminCreatorDetail>(kind === 'disable' ? AdminPaths.creatorDisable : AdminPaths.creatorEnable, { id, reason });
    if (!r.ok) return r.message;
    done(r);
    return null;
  };
  const verify = async (verified: boolean) => {
    const r = await adminApi<AdminCreatorDetail>(AdminPaths.creatorVerify, { id, verified });
    if (!r.ok) return r.message;
    done(r);
    return null;
  };

  return (
    <div data-testid="admin-creator-detail">
      <button type="button" className="mb-4 text-sm text-brand hover:underline" onClick={onBack}>
        ← {t('common.back')}
      </button>
      <QueryState q={q}>
        {(c) => (
          <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_340px]">
            <div className="card p-5">
              <h3 className="mb-4 text-sm font-semibold text-ink">{t('creators.profile')}</h3>
              {can('catalog.edit') ? <ProfileForm key={c.updatedAt ?? 0} c={c} onSaved={done} /> : <ProfileView c={c} />}
            </div>
            <div className="card p-5">
              <div className="mb-4 flex flex-wrap items-center gap-3">
                <h2 className="text-lg font-semibold text-ink" data-testid="admin-creator-name">
                  {c.name}
                </h2>
                <CreatorState c={c} />
              </div>
              <Facts
                rows={[
                  [t('creators.id'), c.id],
                  [t('creators.accountId'), c.accountId],
                  [t('creators.releases'), c.projectCount],
                  [
                    t('creators.fromApplication'),
                    c.applicationId ? (
                      <a key="a" className="text-brand hover:underline" href={`/admin/applications?id=${c.applicationId}`} data-testid="admin-creator-application">
                        {t('creators.openApplication', { id: c.applicationId })}
                      </a>
                    ) : (
                      t('creators.noApplication')
                    ),
                  ],
                  [
                    t('creators.publicPage'),
                    <a key="p" className="text-brand hover:underline" href={`/creator/${c.accountId}`} target="_blank" rel="noreferrer">
                      /creator/{c.accountId}
                    </a>,
                  ],
                  [t('creators.createdAt'), when(c.createdAt)],
                  [t('creators.updatedAt'), when(c.updatedAt)],
                ]}
              />
              {can('catalog.edit') && (
                <div className="mt-5 flex flex-wrap gap-3">
                  {c.disabledAt ? (
                    <button type="button" className="btn-ghost" onClick={() => setDialog('enable')} data-testid="admin-creator-enable">
                      {t('creators.enable')}
                    </button>
                  ) : (
                    <button type="button" className="btn bg-danger text-white hover:opacity-90" onClick={() => setDialog('disable')} data-testid="admin-creator-disable">
                      {t('creators.disable')}
                    </button>
                  )}
                  <button type="button" className="btn-ghost" onClick={() => setDialog(c.verifiedAt ? 'unverify' : 'verify')} data-testid="admin-creator-verify">
                    {c.verifiedAt ? t('creators.unverify') : t('creators.verify')}
                  </button>
                </div>
              )}
            </div>
            <ConfirmDialog
              open={dialog === 'disable'}
              onClose={() => setDialog(null)}
              title={t('creators.disableTitle', { name: c.name })}
              intro={t('creators.disableIntro')}
              confirmLabel={t('creators.disable')}
              reason
              danger
              testId="admin-creator-disable-dialog"
              onConfirm={(reason) => toggle('disable', reason)}
            />
            <ConfirmDialog
              open={dialog === 'enable'}
              onClose={() => setDialog(null)}
              title={t('creators.enableTitle', { name: c.name })}
              confirmLabel={t('creators.enable')}
              reason
              testId="admin-creator-enable-dialog"
              onConfirm={(reason) => toggle('enable', reason)}
            />
            <ConfirmDialog
              open={dialog === 'verify' || dialog === 'unverify'}
              onClose={() => setDialog(null)}
              title={t(dialog === 'unverify' ? 'creators.unverifyTitle' : 'creators.verifyTitle', { name: c.name })}
              intro={dialog === 'unverify' ? undefined : t('creators.verifyIntro')}
              confirmLabel={dialog === 'unverify' ? t('creators.unverify') : t('creators.verify')}
              testId="admin-creator-verify-dialog"
              onConfirm={() => verify(dialog !== 'unverify')}
            />
          </div>
        )}
      </QueryState>
    </div>
  );
}

/** The profile read-only (roles that may read creators but not edit them). */
function ProfileView({ c }: { c: AdminCreatorDetail }) {
  const t = useAdminT();
  return (
    <Facts
      rows={[
        [t('creators.avatar'), <img key="a" src={c.avatar} alt="" className="h-16 w-16 rounded-full border border-line object-cover" />],
        [t('creators.banner'), <img key="b" src={c.banner} alt="" className="h-16 w-48 rounded border border-line object-cover" />],
        [t('creators.intro'), <span key="i" className="whitespace-pre-wrap">{c.intro || '—'}</span>],
        [
          t('creators.mediaLinks'),
          c.mediaLinks.length ? (
            <ul key="m" className="space-y-1">
              {c.mediaLinks.map((m, i) => (
                <li key={i}>
                  {m.label} · <span className="break-all text-ink-faint">{m.url}</span>
                </li>
              ))}
            </ul>
          ) : (
            '—'
          ),
        ],
      ]}
    />
  );
}

function ProfileForm({ c, onSaved }: { c: AdminCreatorDetail; onSaved: (r: { ok: true; data: AdminCreatorDetail; message: string }) => void }) {
  const t = useAdminT();
  const [f, setF] = useState<CreatorForm>(() => creatorFormOf(c));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const patchLink = (i: number, part: Partial<CreatorForm['links'][number]>) => setF((x) => ({ ...x, links: x.links.map((l, j) => (j === i ? { ...l, ...part } : l)) }));

  const save = async () => {
    const problem = creatorFormProblem(f);
    if (problem) {
      setError(t(problem.key, problem.vars));
      return;
    }
    const body = creatorPatch(c, f);
    if (!patchChanges(body)) {
      setError(t('creators.nothingChanged'));
      return;
    }
    setBusy(true);
    setError('');
    const r = await adminApi<AdminCreatorDetail>(AdminPaths.creatorUpdate, body);
    setBusy(false);
    if (!r.ok) {
      setError(r.message || t('common.networkError'));
      return;
    }
    onSaved(r);
  };

  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      data-testid="admin-creator-form"
    >
      <Field label={t('creators.name')}>
        <input className="field-input" value={f.name} maxLength={CREATOR_LIMITS.nameMax * 2} onChange={(e) => setF({ ...f, name: e.target.value })} data-testid="admin-creator-name-input" />
      </Field>
      <ImageField label={t('creators.avatar')} value={f.avatar} onChange={(avatar) => setF((x) => ({ ...x, avatar }))} uploadPath={AdminPaths.releaseUpload} testId="admin-creator-avatar" />
      <ImageField label={t('creators.banner')} value={f.banner} onChange={(banner) => setF((x) => ({ ...x, banner }))} uploadPath={AdminPaths.releaseUpload} testId="admin-creator-banner" />
      <Field label={t('creators.intro')} hint={t('creators.introHint', { n: CREATOR_LIMITS.introMax })}>
        <textarea className="field-input min-h-28 py-2" value={f.intro} onChange={(e) => setF({ ...f, intro: e.target.value })} data-testid="admin-creator-intro" />
      </Field>
      <div className="text-sm">
        <span className="mb-1 block text-ink-soft">{t('creators.mediaLinks')}</span>
        <ul className="space-y-2" data-testid="admin-creator-links">
          {f.links.map((l, i) => (
            <li key={i} className="flex flex-wrap items-center gap-2">
              <select className="field-input h-10 w-36" aria-label={t('creators.linkType')} value={l.type} onChange={(e) => patchLink(i, { type: e.target.value })}>
                {MEDIA_TYPES.map((m) => (
                  <option key={m} value={m}>
                    {t(`creators.mediaTypes.${m as MediaType}`)}
                  </option>
                ))}
              </select>
              <input className="field-input h-10 w-32" placeholder={t('creators.linkLabel')} aria-label={t('creators.linkLabel')} value={l.label} onChange={(e) => patchLink(i, { label: e.target.value })} />
              <input className="field-input h-10 min-w-0 flex-1" placeholder={t('creators.linkUrl')} aria-label={t('creators.linkUrl')} value={l.url} onChange={(e) => patchLink(i, { url: e.target.value })} />
              <button type="button" className="text-xs text-danger hover:underline" onClick={() => setF((x) => ({ ...x, links: x.links.filter((_, j) => j !== i) }))}>
                {t('creators.removeLink')}
              </button>
            </li>
          ))}
        </ul>
        {f.links.length < CREATOR_LIMITS.mediaLinksMax && (
          <button type="button" className="mt-2 text-sm text-brand hover:underline" onClick={() => setF((x) => ({ ...x, links: [...x.links, { type: 'website', label: '', url: '' }] }))} data-testid="admin-creator-add-link">
            + {t('creators.addLink')}
          </button>
        )}
      </div>
      {error && (
        <p className="text-sm text-danger" role="alert" data-testid="admin-creator-form-error">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary" disabled={busy} data-testid="admin-creator-save">
        {t('creators.save')}
      </button>
    </form>
  );
}
