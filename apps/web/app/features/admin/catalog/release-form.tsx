import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { RELEASE_LIMITS } from '@cfx/contract/admin-catalog-rules.ts';
import type { AdminReleaseDetail, ReleaseOptions } from '@cfx/contract/admin-catalog.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { adminApi, adminData } from '../api.ts';
import { notify } from '../components/ui.tsx';
import { useAdminT } from '../i18n.ts';
import { Field, ImageField } from './fields.tsx';
import { fenToInput, fromLocalInput, inputToFen, intOf, percentToPermille, permilleToPercent, toLocalInput } from '../../../lib/form-input.ts';
import { RichEditor } from './rich-editor.tsx';

/**
 * The release form (create and edit). The server enforces what may change (docs/admin.md
 * "Releases"); the form disables what its `locks` say is frozen and explains why, and shows the
 * server's refusal in place. Price in yuan (sent as fen), times in China time, commission in %.
 */
export function ReleaseForm({ initial, onSaved }: { initial?: AdminReleaseDetail; onSaved: (d: AdminReleaseDetail, message: string) => void }) {
  const t = useAdminT();
  const opts = useQuery({ queryKey: ['admin', 'release-options'], queryFn: () => adminData<ReleaseOptions>(AdminPaths.releaseOptions) });
  const d = opts.data?.defaults;
  const locks = initial?.locks;
  const phased = (initial?.phaseInputs.length ?? 0) > 0;
  const [f, setF] = useState(() => ({
    name: initial?.name ?? '',
    creatorId: initial ? String(initial.creatorId) : '',
    cover: initial?.cover ?? '',
    category: initial?.category ?? '',
    descriptionHtml: initial?.descriptionHtml ?? '',
    supply: initial ? String(initial.supply) : '100',
    price: initial ? fenToInput(initial.priceFen) : '',
    start: initial ? toLocalInput(initial.saleStartAt) : '',
    end: initial ? toLocalInput(initial.saleEndAt) : '',
    holdingDays: initial ? String(initial.holdingDays) : '0',
    perIdentityLimit: initial ? String(initial.perIdentityLimit) : '',
    maxPerOrder: initial ? String(initial.maxPerOrder) : '',
    commission: initial ? permilleToPercent(initial.commissionPermille) : '',
    royalty: initial && initial.royaltyPermille !== null ? permilleToPercent(initial.royaltyPermille) : '',
  }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    const priceFen = inputToFen(f.price);
    const saleStartAt = fromLocalInput(f.start);
    const num = (s: string, fallback?: number) => (s.trim() === '' && fallback !== undefined ? fallback : intOf(s));
    const body = {
      ...(initial ? { id: initial.id } : {}),
      name: f.name,
      creatorId: Number(f.creatorId),
      cover: f.cover,
      category: f.category,
      descriptionHtml: f.descriptionHtml,
      supply: num(f.supply),
      priceFen,
      saleStartAt,
      saleEndAt: f.end.trim() ? fromLocalInput(f.end) : null,
      holdingDays: num(f.holdingDays, 0),
      perIdentityLimit: num(f.perIdentityLimit, d?.perIdentityLimit),
      maxPerOrder: num(f.maxPerOrder, d?.maxPerOrder),
      commissionPermille: f.commission.trim() === '' ? d?.commissionPermille : percentToPermille(f.commission),
      // Empty = the platform default (null); the server checks 0–10 % again.
      royaltyPermille: f.royalty.trim() === '' ? null : percentToPermille(f.royalty),
    };
    if (!f.creatorId) return setError(t('releases.pickCreator'));
    if (priceFen === null || priceFen < 1) return setError(t('releases.badPrice'));
    if (saleStartAt === null) return setError(t('releases.badTime'));
    if ([body.supply, body.holdingDays, body.perIdentityLimit, body.maxPerOrder, body.commissionPermille].some((x) => x === null || x === undefined)) return setError(t('releases.badNumber'));
    if (f.royalty.trim() !== '' && (body.royaltyPermille === null || body.royaltyPermille > RELEASE_LIMITS.royaltyMaxPermille)) return setError(t('releases.badRoyalty'));
    setBusy(true);
    const r = await adminApi<AdminReleaseDetail>(initial ? AdminPaths.releaseUpdate : AdminPaths.releaseCreate, body);
    setBusy(false);
    if (!r.ok) {
      setError(r.message || t('catalog.saveFailed'));
      return;
    }
    notify.ok(r.message);
    onSaved(r.data, r.message);
  };

  const startLocked = !!locks?.startLocked || (phased && !!locks?.phasesLocked);
  return (
    <form className="card grid gap-4 p-5 lg:grid-cols-2" onSubmit={(e) => void submit(e)} data-testid="admin-release-form">
      {locks?.started && (
        <p className="rounded bg-amber-50 px-3 py-2 text-sm text-warning lg:col-span-2" data-testid="admin-release-locked">
          {t('releases.lockedStarted')} {locks.hasOrders && t('releases.lockedOrders')}
        </p>
      )}
      <Field label={t('releases.name')}>
        <input className="field-input h-10" value={f.name} maxLength={RELEASE_LIMITS.nameMax} onChange={(e) => set('name')(e.target.value)} required data-testid="admin-release-name" />
      </Field>
      <Field label={t('releases.creator')} hint={locks?.creatorLocked ? t('releases.lockedOrders') : undefined}>
        <select className="field-input h-10" value={f.creatorId} disabled={locks?.creatorLocked} onChange={(e) => set('creatorId')(e.target.value)} data-testid="admin-release-creator">
          <option value="">{t('releases.pickCreator')}</option>
          {opts.data?.creators.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.accountId})
            </option>
          ))}
        </select>
      </Field>
      <div className="lg:col-span-2">
        <ImageField label={t('releases.cover')} value={f.cover} onChange={set('cover')} uploadPath={AdminPaths.releaseUpload} testId="admin-release-cover" />
      </div>
      <Field label={t('releases.category')}>
        <input className="field-input h-10" value={f.category} list="admin-release-categories" maxLength={RELEASE_LIMITS.categoryMax} placeholder={t('releases.categoryPlaceholder')} onChange={(e) => set('category')(e.target.value)} required data-testid="admin-release-category" />
        <datalist id="admin-release-categories">
          {opts.data?.categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </Field>
      <Field
        label={t('releases.supply')}
        hint={
          initial?.locks.supplyLocked
            ? t('catalog.locked')
            : locks?.started
              ? `${t('releases.supplyMin', { n: locks.supplyMin })}${locks.supplyCanGrow ? '' : ` · ${t('releases.supplyNoRoom')}`}`
              : initial
                ? `${t('releases.tokenRange')}: ${initial.tokenStart ?? '—'} – ${initial.tokenEnd ?? '—'}`
                : t('releases.tokenRangeAuto')
        }
      >
        <input className="field-input h-10" inputMode="numeric" value={f.supply} disabled={initial?.locks.supplyLocked} onChange={(e) => set('supply')(e.target.value)} data-testid="admin-release-supply" />
      </Field>
      <Field label={t('releases.price')} hint={locks?.priceLocked && initial?.locks.hasOrders ? t('releases.lockedOrders') : undefined}>
        <input className="field-input h-10" inputMode="decimal" value={f.price} disabled={locks?.priceLocked} placeholder="99.00" onChange={(e) => set('price')(e.target.value)} data-testid="admin-release-price" />
      </Field>
      <Field label={`${t('releases.commission')}`} hint={d ? `${permilleToPercent(d.commissionPermille)}%` : undefined}>
        <input className="field-input h-10" inputMode="decimal" value={f.commission} disabled={locks?.priceLocked} placeholder={d ? permilleToPercent(d.commissionPermille) : ''} onChange={(e) => set('commission')(e.target.value)} data-testid="admin-release-commission" />
      </Field>
      <Field label={t('releases.royalty')} hint={locks?.royaltyLocked ? t('releases.royaltyLocked') : d ? t('releases.royaltyDefault', { p: permilleToPercent(d.royaltyPermille) }) : undefined}>
        <input className="field-input h-10" inputMode="decimal" value={f.royalty} disabled={locks?.royaltyLocked} placeholder={d ? permilleToPercent(d.royaltyPermille) : ''} onChange={(e) => set('royalty')(e.target.value)} data-testid="admin-release-royalty" />
      </Field>
      <Field label={`${t('releases.saleStart')}（${t('catalog.chinaTime')}）`} hint={phased ? t('releases.windowByPhases') : undefined}>
        <input type="datetime-local" className="field-input h-10" value={f.start} disabled={startLocked} onChange={(e) => set('start')(e.target.value)} data-testid="admin-release-start" />
      </Field>
      <Field label={`${t('releases.saleEnd')}（${t('catalog.chinaTime')}）`} hint={t('releases.saleEndHint')}>
        <input type="datetime-local" className="field-input h-10" value={f.end} disabled={phased && !!locks?.phasesLocked} onChange={(e) => set('end')(e.target.value)} data-testid="admin-release-end" />
      </Field>
      <Field label={t('releases.holdingDays')}>
        <input className="field-input h-10" inputMode="numeric" value={f.holdingDays} onChange={(e) => set('holdingDays')(e.target.value)} data-testid="admin-release-holding" />
      </Field>
      <Field label={t('releases.perIdentityLimit')}>
        <input className="field-input h-10" inputMode="numeric" value={f.perIdentityLimit} placeholder={d ? String(d.perIdentityLimit) : ''} onChange={(e) => set('perIdentityLimit')(e.target.value)} data-testid="admin-release-limit" />
      </Field>
      <Field label={t('releases.maxPerOrder')}>
        <input className="field-input h-10" inputMode="numeric" value={f.maxPerOrder} placeholder={d ? String(d.maxPerOrder) : ''} onChange={(e) => set('maxPerOrder')(e.target.value)} data-testid="admin-release-per-order" />
      </Field>
      <div className="text-sm lg:col-span-2">
        <span className="mb-1 block text-ink-soft">{t('releases.description')}</span>
        <RichEditor value={f.descriptionHtml} onChange={set('descriptionHtml')} uploadPath={AdminPaths.releaseUpload} testId="admin-release-description" minHeight={160} />
      </div>
      {error && (
        <p className="text-sm text-danger lg:col-span-2" role="alert" data-testid="admin-release-error">
          {error}
        </p>
      )}
      <div className="lg:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy || opts.isPending} data-testid="admin-release-submit">
          {busy && <Spinner />} {initial ? t('releases.save') : t('releases.create')}
        </button>
      </div>
    </form>
  );
}
