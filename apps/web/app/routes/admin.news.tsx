import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { NEWS_LIMITS, NEWS_STATES, type NewsState } from '@cfx/contract/admin-catalog-rules.ts';
import type { AdminNewsDetail, AdminNewsRow } from '@cfx/contract/admin-catalog.ts';
import type { Page } from '@cfx/contract/admin.ts';
import { Pager } from '../components/ui/pager.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { adminApi, adminData } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { AdminPage, Badge, notify, QueryState, Table, Tabs, td, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { Field, ImageField } from '../features/admin/catalog/fields.tsx';
import { fromLocalInput, intOf, toLocalInput } from '../lib/form-input.ts';
import { RichEditor } from '../features/admin/catalog/rich-editor.tsx';

const PAGE_SIZE = 20;
const STATE_TONE: Record<NewsState, 'good' | 'info' | 'neutral'> = { published: 'good', scheduled: 'info', draft: 'neutral' };

/**
 * News (operators, owners): list and filter every item whatever its state; create / edit with a
 * cover upload, a rich-text body (sanitised by the server on save; preview shows what it keeps),
 * hot and placement flags, a publish time; publish, unpublish and delete with confirmations.
 * What is published shows on /news and the news calls on the next request.
 */
export default function AdminNews() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id'));
  const creating = params.get('new') === '1';
  return (
    <AdminPage
      title={t('news.title')}
      permission="content.edit"
      testId="admin-news"
      actions={
        !creating && !id ? (
          <button type="button" className="btn-primary" onClick={() => setParams(new URLSearchParams({ new: '1' }))} data-testid="admin-news-new">
            {t('news.new')}
          </button>
        ) : undefined
      }
    >
      {creating || (Number.isInteger(id) && id > 0) ? <NewsEditor id={creating ? null : id} onBack={() => setParams(new URLSearchParams())} onCreated={(n) => setParams(new URLSearchParams({ id: String(n) }))} /> : <NewsList />}
    </AdminPage>
  );
}

function NewsList() {
  const t = useAdminT();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const state = (params.get('state') ?? '') as NewsState | '';
  const category = params.get('category') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = useQuery({
    queryKey: ['admin', 'news', q, state, category, page],
    queryFn: () => adminData<Page<AdminNewsRow> & { categories: string[] }>(AdminPaths.newsList, { q, state: state || null, category, pageNum: page, pageSize: PAGE_SIZE }),
  });
  const [dialog, setDialog] = useState<{ kind: 'unpublish' | 'delete'; news: AdminNewsRow } | null>(null);
  const setFilter = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    next.delete('page');
    setParams(next);
  };
  const act = async (path: string, body: unknown, message: string) => {
    const r = await adminApi(path, body);
    if (!r.ok) return r.message;
    notify.ok(message);
    void client.invalidateQueries({ queryKey: ['admin', 'news'] });
    return null;
  };
  return (
    <>
      <Tabs value={state} options={[{ value: '' as NewsState | '', label: t('news.stateAll') }, ...NEWS_STATES.map((s) => ({ value: s as NewsState | '', label: t(`news.states.${s}`) }))]} onChange={(v) => setFilter('state', v)} testId="admin-news-state" />
      <form
        className="mb-4 flex flex-wrap items-center gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter('q', String(new FormData(e.currentTarget).get('q') ?? '').trim());
        }}
      >
        <input name="q" defaultValue={q} key={q} placeholder={t('news.searchPlaceholder')} className="field-input h-10 max-w-xs" data-testid="admin-news-q" />
        <select className="field-input h-10 w-40" value={category} onChange={(e) => setFilter('category', e.target.value)} data-testid="admin-news-category-filter">
          <option value="">{t('common.all')}</option>
          {query.data?.categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-ghost">
          {t('common.search')}
        </button>
      </form>
      <QueryState q={query} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            <p className="mb-2 text-xs text-ink-faint">{t('common.total', { n: d.total })}</p>
            <Table head={[t('releases.id'), t('news.titleLabel'), t('news.category'), t('common.status'), t('news.publishedAt'), t('news.views'), t('common.actions')]} testId="admin-news-table">
              {d.list.map((n) => (
                <tr key={n.id} data-testid="admin-news-row" data-id={n.id} data-state={n.state}>
                  <td className={`${td} tabular`}>{n.id}</td>
                  <td className={td}>
                    <span className="block text-ink">{n.title}</span>
                    <span className="flex gap-1">
                      {n.isHot && <Badge tone="warn">{t('news.hot')}</Badge>}
                      {n.isPlace && <Badge tone="info">{t('news.place')}</Badge>}
                    </span>
                  </td>
                  <td className={td}>{n.category}</td>
                  <td className={td}>
                    <Badge tone={STATE_TONE[n.state]}>{t(`news.states.${n.state}`)}</Badge>
                  </td>
                  <td className={`${td} tabular whitespace-nowrap`}>{when(n.publishedAt)}</td>
                  <td className={`${td} tabular`}>{n.views}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    <span className="flex flex-wrap gap-3">
                      <button type="button" className="text-brand hover:underline" onClick={() => setParams(new URLSearchParams({ id: String(n.id) }))} data-testid="admin-news-open">
                        {t('releases.edit')}
                      </button>
                      {n.state === 'draft' ? (
                        <button type="button" className="text-brand hover:underline" onClick={() => void act(AdminPaths.newsPublish, { id: n.id, publish: true }, t('news.published')).then((m) => m && notify.fail(m))} data-testid="admin-news-row-publish">
                          {t('news.publish')}
                        </button>
                      ) : (
                        <button type="button" className="text-ink-soft hover:underline" onClick={() => setDialog({ kind: 'unpublish', news: n })} data-testid="admin-news-row-unpublish">
                          {t('news.unpublish')}
                        </button>
                      )}
                      <button type="button" className="text-danger hover:underline" onClick={() => setDialog({ kind: 'delete', news: n })} data-testid="admin-news-row-delete">
                        {t('news.delete')}
                      </button>
                    </span>
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} total={d.total} pageSize={PAGE_SIZE} />
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={dialog?.kind === 'unpublish'}
        onClose={() => setDialog(null)}
        title={t('news.unpublishTitle', { title: dialog?.news.title ?? '' })}
        intro={t('news.unpublishIntro')}
        confirmLabel={t('news.unpublish')}
        testId="admin-news-unpublish-dialog"
        onConfirm={() => act(AdminPaths.newsPublish, { id: dialog!.news.id, publish: false }, t('news.unpublished'))}
      />
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        onClose={() => setDialog(null)}
        title={t('news.deleteTitle', { title: dialog?.news.title ?? '' })}
        intro={t('news.deleteIntro')}
        confirmLabel={t('news.delete')}
        danger
        testId="admin-news-delete-dialog"
        onConfirm={() => act(AdminPaths.newsDelete, { id: dialog!.news.id }, t('news.deleted'))}
      />
    </>
  );
}

function NewsEditor({ id, onBack, onCreated }: { id: number | null; onBack: () => void; onCreated: (id: number) => void }) {
  const t = useAdminT();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'news-item', id], queryFn: () => adminData<AdminNewsDetail>(AdminPaths.newsDetail, { id }), enabled: id !== null });
  return (
    <div data-testid="admin-news-editor">
      <button type="button" className="mb-4 text-sm text-brand hover:underline" onClick={onBack} data-testid="admin-news-back">
        ← {t('news.back')}
      </button>
      {id === null ? (
        <NewsForm
          onSaved={(d) => {
            void client.invalidateQueries({ queryKey: ['admin', 'news'] });
            onCreated(d.id);
          }}
        />
      ) : (
        <QueryState q={q}>
          {(d) => (
            <NewsForm
              key={`${d.id}:${d.updatedAt}:${d.state}`}
              initial={d}
              onSaved={(n) => {
                client.setQueryData(['admin', 'news-item', id], n);
                void client.invalidateQueries({ queryKey: ['admin', 'news'] });
              }}
            />
          )}
        </QueryState>
      )}
    </div>
  );
}

function NewsForm({ initial, onSaved }: { initial?: AdminNewsDetail; onSaved: (d: AdminNewsDetail) => void }) {
  const t = useAdminT();
  const [f, setF] = useState(() => ({
    title: initial?.title ?? '',
    category: initial?.category ?? '',
    cover: initial?.cover ?? '',
    summary: initial?.summary ?? '',
    author: initial?.author ?? '',
    contentHtml: initial?.contentHtml ?? '',
    isHot: initial?.isHot ?? false,
    isPlace: initial?.isPlace ?? false,
    placeSort: String(initial?.placeSort ?? 0),
    publishedAt: initial && initial.state !== 'draft' ? toLocalInput(initial.publishedAt) : '',
  }));
  const [busy, setBusy] = useState<'draft' | 'publish' | null>(null);
  const [error, setError] = useState('');
  const set = <K extends keyof typeof f>(k: K) => (v: (typeof f)[K]) => setF((x) => ({ ...x, [k]: v }));

  const save = async (draft: boolean) => {
    setError('');
    setBusy(draft ? 'draft' : 'publish');
    const r = await adminApi<AdminNewsDetail>(AdminPaths.newsSave, {
      ...(initial ? { id: initial.id } : {}),
      title: f.title,
      category: f.category,
      cover: f.cover,
      summary: f.summary,
      author: f.author,
      contentHtml: f.contentHtml,
      isHot: f.isHot,
      isPlace: f.isPlace,
      placeSort: intOf(f.placeSort) ?? 0,
      publishedAt: f.publishedAt.trim() ? fromLocalInput(f.publishedAt) : null,
      draft,
    });
    setBusy(null);
    if (!r.ok) return setError(r.message || t('catalog.saveFailed'));
    notify.ok(draft ? t('news.saved') : t('news.published'));
    onSaved(r.data);
  };

  return (
    <div className="card grid gap-4 p-5 lg:grid-cols-2" data-testid="admin-news-form" data-state={initial?.state ?? 'new'}>
      {initial && (
        <div className="flex items-center gap-3 lg:col-span-2">
          <Badge tone={STATE_TONE[initial.state]} testId="admin-news-state-badge">
            {t(`news.states.${initial.state}`)}
          </Badge>
          {initial.state !== 'draft' && (
            <a className="text-sm text-brand hover:underline" href={`/news/${initial.id}`} target="_blank" rel="noreferrer">
              {t('news.viewPublic')}
            </a>
          )}
        </div>
      )}
      <Field label={t('news.titleLabel')}>
        <input className="field-input h-10" value={f.title} maxLength={NEWS_LIMITS.titleMax} onChange={(e) => set('title')(e.target.value)} data-testid="admin-news-title" />
      </Field>
      <Field label={t('news.category')}>
        <input className="field-input h-10" value={f.category} maxLength={NEWS_LIMITS.categoryMax} placeholder={t('news.categoryPlaceholder')} onChange={(e) => set('category')(e.target.value)} data-testid="admin-news-category" />
      </Field>
      <div className="lg:col-span-2">
        <ImageField label={t('news.cover')} value={f.cover} onChange={set('cover')} uploadPath={AdminPaths.contentUpload} testId="admin-news-cover" />
      </div>
      <Field label={t('news.summary')} hint={t('news.summaryHint')}>
        <input className="field-input h-10" value={f.summary} maxLength={NEWS_LIMITS.summaryMax} onChange={(e) => set('summary')(e.target.value)} data-testid="admin-news-summary" />
      </Field>
      <Field label={t('news.author')}>
        <input className="field-input h-10" value={f.author} maxLength={NEWS_LIMITS.authorMax} onChange={(e) => set('author')(e.target.value)} data-testid="admin-news-author" />
      </Field>
      <div className="text-sm lg:col-span-2">
        <span className="mb-1 block text-ink-soft">{t('news.body')}</span>
        <RichEditor value={f.contentHtml} onChange={set('contentHtml')} uploadPath={AdminPaths.contentUpload} testId="admin-news-body" />
      </div>
      <div className="flex flex-wrap items-end gap-4 lg:col-span-2">
        <label className="flex items-center gap-1.5 text-sm text-ink-soft">
          <input type="checkbox" checked={f.isHot} onChange={(e) => set('isHot')(e.target.checked)} data-testid="admin-news-hot" /> {t('news.hot')}
        </label>
        <label className="flex items-center gap-1.5 text-sm text-ink-soft">
          <input type="checkbox" checked={f.isPlace} onChange={(e) => set('isPlace')(e.target.checked)} data-testid="admin-news-place" /> {t('news.place')}
        </label>
        {f.isPlace && (
          <Field label={t('news.placeSort')}>
            <input className="field-input h-9 w-24" inputMode="numeric" value={f.placeSort} onChange={(e) => set('placeSort')(e.target.value)} />
          </Field>
        )}
        <Field label={`${t('news.publishedAt')}（${t('catalog.chinaTime')}）`} hint={t('news.publishedAtHint')}>
          <input type="datetime-local" className="field-input h-10" value={f.publishedAt} onChange={(e) => set('publishedAt')(e.target.value)} data-testid="admin-news-published-at" />
        </Field>
      </div>
      {error && (
        <p className="text-sm text-danger lg:col-span-2" role="alert" data-testid="admin-news-error">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-3 lg:col-span-2">
        <button type="button" className="btn-primary" disabled={busy !== null} onClick={() => void save(false)} data-testid="admin-news-publish">
          {busy === 'publish' && <Spinner />} {initial && initial.state !== 'draft' ? t('news.save') : t('news.publish')}
        </button>
        <button type="button" className="btn-ghost" disabled={busy !== null} onClick={() => void save(true)} data-testid="admin-news-draft">
          {busy === 'draft' && <Spinner />} {t('news.saveDraft')}
        </button>
      </div>
    </div>
  );
}
