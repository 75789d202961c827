import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { BANNER_LIMITS, BANNER_LINK_TYPES, BANNER_POSITIONS, RECOMMEND_ITEM_TYPES, RECOMMEND_LIMITS, type BannerLinkTypeValue, type BannerPositionValue, type RecommendItemTypeValue } from '@cfx/contract/admin-catalog-rules.ts';
import type { AdminBanner, AdminRecommendList } from '@cfx/contract/admin-catalog.ts';
import { Spinner } from '../components/ui/spinner.tsx';
import { adminApi, adminData } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { AdminPage, Badge, notify, QueryState, Table, Tabs, td, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { Field, ImageField, move, RowMoves } from '../features/admin/catalog/fields.tsx';
import { fromLocalInput, intOf, toLocalInput } from '../lib/form-input.ts';
import { TargetPicker, TYPE_LABEL } from '../features/admin/catalog/target-picker.tsx';

/**
 * Banners and recommend lists (operators, owners). Banners: position, image upload, link (a
 * release, collectible, news item, creator or a URL), order, on/off and an active window; the
 * public banner calls read them on every request, so a save shows on the site at once. Recommend
 * lists: a code the site asks for (the home page reads home_recommend / home_hot / home_creators)
 * and its items in order.
 */
export default function AdminBanners() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'recommend' ? 'recommend' : 'banners';
  return (
    <AdminPage title={t('banners.title')} permission="content.edit" testId="admin-banners">
      <Tabs
        value={tab}
        options={[
          { value: 'banners', label: t('banners.tabBanners') },
          { value: 'recommend', label: t('banners.tabRecommend') },
        ]}
        onChange={(v) => setParams(new URLSearchParams(v === 'recommend' ? { tab: 'recommend' } : {}))}
        testId="admin-banners-tabs"
      />
      {tab === 'recommend' ? <RecommendLists /> : <Banners />}
    </AdminPage>
  );
}

function Banners() {
  const t = useAdminT();
  const client = useQueryClient();
  const [position, setPosition] = useState<BannerPositionValue | ''>('');
  const q = useQuery({ queryKey: ['admin', 'banners', position], queryFn: () => adminData<AdminBanner[]>(AdminPaths.bannersList, { position: position || null }) });
  const [editing, setEditing] = useState<AdminBanner | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminBanner | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ['admin', 'banners'] });
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <select className="field-input h-10 w-40" value={position} onChange={(e) => setPosition(e.target.value as BannerPositionValue | '')} data-testid="admin-banners-position">
          <option value="">{t('common.all')}</option>
          {BANNER_POSITIONS.map((p) => (
            <option key={p} value={p}>
              {t(`banners.positions.${p}`)}
            </option>
          ))}
        </select>
        {!editing && (
          <button type="button" className="btn-primary" onClick={() => setEditing('new')} data-testid="admin-banner-new">
            {t('banners.new')}
          </button>
        )}
      </div>
      {editing && (
        <BannerForm
          key={editing === 'new' ? 'new' : editing.id}
          banner={editing === 'new' ? null : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) refresh();
          }}
        />
      )}
      <QueryState q={q} isEmpty={(d) => d.length === 0}>
        {(d) => (
          <Table head={[t('banners.image'), t('banners.titleLabel'), t('banners.position'), t('banners.link'), t('banners.sort'), t('banners.window'), t('common.status'), t('common.actions')]} testId="admin-banners-table">
            {d.map((b) => (
              <tr key={b.id} data-testid="admin-banner-row" data-id={b.id} data-live={b.live ? '1' : '0'}>
                <td className={td}>
                  <img src={b.image} alt="" className="h-10 w-20 rounded object-cover" loading="lazy" />
                </td>
                <td className={td}>
                  <span className="block text-ink">{b.title}</span>
                  <span className="block text-xs text-ink-faint">{b.subtitle}</span>
                </td>
                <td className={td}>{t(`banners.positions.${b.position}`)}</td>
                <td className={`${td} text-xs`}>
                  {t(TYPE_LABEL[b.linkType])} {b.linkType === 'url' ? b.linkTarget : `#${b.linkTarget} ${b.linkLabel}`}
                </td>
                <td className={`${td} tabular`}>{b.sort}</td>
                <td className={`${td} tabular whitespace-nowrap text-xs`}>
                  {b.startAt ? when(b.startAt) : '—'}
                  <br />
                  {b.endAt ? when(b.endAt) : '—'}
                </td>
                <td className={td}>{b.live ? <Badge tone="good">{t('banners.live')}</Badge> : <Badge>{t('banners.notLive')}</Badge>}</td>
                <td className={`${td} whitespace-nowrap`}>
                  <span className="flex gap-3">
                    <button type="button" className="text-brand hover:underline" onClick={() => setEditing(b)} data-testid="admin-banner-edit">
                      {t('banners.edit')}
                    </button>
                    <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(b)} data-testid="admin-banner-delete">
                      {t('banners.delete')}
                    </button>
                  </span>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </QueryState>
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('banners.deleteTitle', { title: deleting?.title ?? '' })}
        intro={t('banners.deleteIntro')}
        confirmLabel={t('banners.delete')}
        danger
        testId="admin-banner-delete-dialog"
        onConfirm={async () => {
          const r = await adminApi(AdminPaths.bannerDelete, { id: deleting!.id });
          if (!r.ok) return r.message;
          notify.ok(t('banners.deleted'));
          refresh();
          return null;
        }}
      />
    </div>
  );
}

function BannerForm({ banner, onDone }: { banner: AdminBanner | null; onDone: (saved: boolean) => void }) {
  const t = useAdminT();
  const [f, setF] = useState(() => ({
    position: banner?.position ?? ('home' as BannerPositionValue),
    title: banner?.title ?? '',
    subtitle: banner?.subtitle ?? '',
    image: banner?.image ?? '',
    linkType: banner?.linkType ?? ('project' as BannerLinkTypeValue),
    linkTarget: banner?.linkTarget ?? '',
    linkLabel: banner?.linkLabel ?? '',
    sort: String(banner?.sort ?? 0),
    active: banner?.active ?? true,
    startAt: toLocalInput(banner?.startAt ?? null),
    endAt: toLocalInput(banner?.endAt ?? null),
  }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const set = <K extends keyof typeof f>(k: K) => (v: (typeof f)[K]) => setF((x) => ({ ...x, [k]: v }));
  const save = async () => {
    setError('');
    setBusy(true);
    const r = await adminApi<AdminBanner>(AdminPaths.bannerSave, {
      ...(banner ? { id: banner.id } : {}),
      position: f.position,
      title: f.title,
      subtitle: f.subtitle,
      image: f.image,
      linkType: f.linkType,
      linkTarget: f.linkTarget,
      sort: intOf(f.sort) ?? 0,
      active: f.active,
      startAt: f.startAt ? fromLocalInput(f.startAt) : null,
      endAt: f.endAt ? fromLocalInput(f.endAt) : null,
    });
    setBusy(false);
    if (!r.ok) return setError(r.message || t('catalog.saveFailed'));
    notify.ok(t('banners.saved'));
    onDone(true);
  };
  return (
    <div className="card grid gap-4 p-5 lg:grid-cols-2" data-testid="admin-banner-form">
      <Field label={t('banners.position')}>
        <select className="field-input h-10" value={f.position} onChange={(e) => set('position')(e.target.value as BannerPositionValue)} data-testid="admin-banner-position">
          {BANNER_POSITIONS.map((p) => (
            <option key={p} value={p}>
              {t(`banners.positions.${p}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('banners.sort')}>
        <input className="field-input h-10" inputMode="numeric" value={f.sort} onChange={(e) => set('sort')(e.target.value)} data-testid="admin-banner-sort" />
      </Field>
      <Field label={t('banners.titleLabel')}>
        <input className="field-input h-10" value={f.title} maxLength={BANNER_LIMITS.titleMax} onChange={(e) => set('title')(e.target.value)} data-testid="admin-banner-title" />
      </Field>
      <Field label={t('banners.subtitle')}>
        <input className="field-input h-10" value={f.subtitle} maxLength={BANNER_LIMITS.subtitleMax} onChange={(e) => set('subtitle')(e.target.value)} data-testid="admin-banner-subtitle" />
      </Field>
      <div className="lg:col-span-2">
        <ImageField label={t('banners.image')} value={f.image} onChange={set('image')} uploadPath={AdminPaths.contentUpload} testId="admin-banner-image" />
      </div>
      <Field label={t('banners.linkType')}>
        <select
          className="field-input h-10"
          value={f.linkType}
          onChange={(e) => setF((x) => ({ ...x, linkType: e.target.value as BannerLinkTypeValue, linkTarget: '', linkLabel: '' }))}
          data-testid="admin-banner-link-type"
        >
          {BANNER_LINK_TYPES.map((l) => (
            <option key={l} value={l}>
              {t(TYPE_LABEL[l])}
            </option>
          ))}
        </select>
      </Field>
      <div className="text-sm">
        <span className="mb-1 block text-ink-soft">{t('banners.target')}</span>
        {f.linkType === 'url' ? (
          <input className="field-input h-10" value={f.linkTarget} maxLength={BANNER_LIMITS.urlMax} placeholder={t('banners.url')} onChange={(e) => set('linkTarget')(e.target.value)} data-testid="admin-banner-url" />
        ) : (
          <>
            {f.linkTarget && (
              <p className="mb-2 text-ink" data-testid="admin-banner-target" data-id={f.linkTarget}>
                {t('catalog.picked')}: #{f.linkTarget} {f.linkLabel}
              </p>
            )}
            <TargetPicker type={f.linkType} onPick={(x) => setF((s) => ({ ...s, linkTarget: String(x.id), linkLabel: x.label }))} testId="admin-banner-picker" />
          </>
        )}
      </div>
      <Field label={`${t('banners.startAt')}（${t('catalog.chinaTime')}）`} hint={t('banners.windowHint')}>
        <input type="datetime-local" className="field-input h-10" value={f.startAt} onChange={(e) => set('startAt')(e.target.value)} data-testid="admin-banner-start" />
      </Field>
      <Field label={t('banners.endAt')} hint={t('banners.windowHint')}>
        <input type="datetime-local" className="field-input h-10" value={f.endAt} onChange={(e) => set('endAt')(e.target.value)} data-testid="admin-banner-end" />
      </Field>
      <label className="flex items-center gap-1.5 text-sm text-ink-soft">
        <input type="checkbox" checked={f.active} onChange={(e) => set('active')(e.target.checked)} data-testid="admin-banner-active" /> {t('banners.active')}
      </label>
      {error && (
        <p className="text-sm text-danger lg:col-span-2" role="alert" data-testid="admin-banner-error">
          {error}
        </p>
      )}
      <div className="flex gap-3 lg:col-span-2">
        <button type="button" className="btn-primary" disabled={busy} onClick={() => void save()} data-testid="admin-banner-save">
          {busy && <Spinner />} {t('banners.save')}
        </button>
        <button type="button" className="btn-ghost" onClick={() => onDone(false)}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}

function RecommendLists() {
  const t = useAdminT();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'recommend'], queryFn: () => adminData<AdminRecommendList[]>(AdminPaths.recommendList) });
  const [adding, setAdding] = useState(false);
  const refresh = () => void client.invalidateQueries({ queryKey: ['admin', 'recommend'] });
  return (
    <div className="space-y-4" data-testid="admin-recommend">
      <p className="text-sm text-ink-faint">{t('recommend.intro')}</p>
      {adding ? (
        <RecommendForm
          list={null}
          onDone={(saved) => {
            setAdding(false);
            if (saved) refresh();
          }}
        />
      ) : (
        <button type="button" className="btn-primary" onClick={() => setAdding(true)} data-testid="admin-recommend-new">
          {t('recommend.new')}
        </button>
      )}
      <QueryState q={q} isEmpty={(d) => d.length === 0}>
        {(d) => (
          <div className="space-y-4">
            {d.map((l) => (
              <RecommendForm key={`${l.id}:${l.items.map((i) => i.id).join(',')}:${l.title}`} list={l} onDone={(saved) => saved && refresh()} />
            ))}
          </div>
        )}
      </QueryState>
    </div>
  );
}

function RecommendForm({ list, onDone }: { list: AdminRecommendList | null; onDone: (saved: boolean) => void }) {
  const t = useAdminT();
  const [code, setCode] = useState(list?.code ?? '');
  const [title, setTitle] = useState(list?.title ?? '');
  const [sort, setSort] = useState(String(list?.sort ?? 0));
  const [items, setItems] = useState(list?.items ?? []);
  const [type, setType] = useState<RecommendItemTypeValue>('project');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [deleting, setDeleting] = useState(false);
  const save = async () => {
    setError('');
    setBusy(true);
    const r = await adminApi<AdminRecommendList>(AdminPaths.recommendSave, { ...(list ? { id: list.id } : {}), code, title, sort: intOf(sort) ?? 0, items: items.map((i) => ({ type: i.type, id: i.id })) });
    setBusy(false);
    if (!r.ok) return setError(r.message || t('catalog.saveFailed'));
    notify.ok(t('recommend.saved'));
    onDone(true);
  };
  return (
    <div className="card space-y-3 p-5" data-testid="admin-recommend-list" data-code={list?.code ?? ''}>
      <div className="grid gap-3 sm:grid-cols-[1fr_2fr_100px]">
        <Field label={t('recommend.code')}>
          <input className="field-input h-10 font-mono" value={code} maxLength={RECOMMEND_LIMITS.codeMax} onChange={(e) => setCode(e.target.value)} data-testid="admin-recommend-code" />
        </Field>
        <Field label={t('recommend.titleLabel')}>
          <input className="field-input h-10" value={title} maxLength={RECOMMEND_LIMITS.titleMax} onChange={(e) => setTitle(e.target.value)} data-testid="admin-recommend-title" />
        </Field>
        <Field label={t('recommend.sort')}>
          <input className="field-input h-10" inputMode="numeric" value={sort} onChange={(e) => setSort(e.target.value)} />
        </Field>
      </div>
      <div className="text-sm">
        <span className="mb-1 block text-ink-soft">{t('recommend.items')}</span>
        {items.length === 0 ? (
          <p className="text-ink-faint">{t('recommend.empty')}</p>
        ) : (
          <ol className="divide-y divide-line rounded border border-line">
            {items.map((i, n) => (
              <li key={`${i.type}:${i.id}`} className="flex items-center justify-between gap-3 px-3 py-2" data-testid="admin-recommend-item" data-type={i.type} data-id={i.id}>
                <span className="min-w-0 truncate">
                  {n + 1}. {t(TYPE_LABEL[i.type])} #{i.id} {i.label} {i.missing && <span className="text-danger">{t('recommend.missing')}</span>}
                </span>
                <RowMoves index={n} count={items.length} onMove={(a, b) => setItems((xs) => move(xs, a, b))} onRemove={() => setItems((xs) => xs.filter((_, j) => j !== n))} />
              </li>
            ))}
          </ol>
        )}
      </div>
      {items.length < RECOMMEND_LIMITS.itemsMax && (
        <div className="flex flex-wrap items-start gap-3">
          <select className="field-input h-9 w-32" value={type} onChange={(e) => setType(e.target.value as RecommendItemTypeValue)} aria-label={t('recommend.addItem')}>
            {RECOMMEND_ITEM_TYPES.map((x) => (
              <option key={x} value={x}>
                {t(TYPE_LABEL[x])}
              </option>
            ))}
          </select>
          <TargetPicker
            type={type}
            onPick={(x) => setItems((xs) => (xs.some((i) => i.type === x.type && i.id === x.id) ? xs : [...xs, { type: x.type, id: x.id, label: x.label, missing: false }]))}
            testId="admin-recommend-picker"
          />
        </div>
      )}
      {error && (
        <p className="text-sm text-danger" role="alert" data-testid="admin-recommend-error">
          {error}
        </p>
      )}
      <div className="flex gap-3">
        <button type="button" className="btn-primary" disabled={busy} onClick={() => void save()} data-testid="admin-recommend-save">
          {busy && <Spinner />} {t('recommend.save')}
        </button>
        {list ? (
          <button type="button" className="btn-ghost text-danger" onClick={() => setDeleting(true)} data-testid="admin-recommend-delete">
            {t('recommend.delete')}
          </button>
        ) : (
          <button type="button" className="btn-ghost" onClick={() => onDone(false)}>
            {t('common.cancel')}
          </button>
        )}
      </div>
      {list && (
        <ConfirmDialog
          open={deleting}
          onClose={() => setDeleting(false)}
          title={t('recommend.deleteTitle', { title: list.title })}
          intro={t('recommend.deleteIntro')}
          confirmLabel={t('recommend.delete')}
          danger
          testId="admin-recommend-delete-dialog"
          onConfirm={async () => {
            const r = await adminApi(AdminPaths.recommendDelete, { id: list.id });
            if (!r.ok) return r.message;
            notify.ok(t('recommend.deleted'));
            onDone(true);
            return null;
          }}
        />
      )}
    </div>
  );
}
