import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { toast } from '../../../stores/toast.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { Field } from '../../../components/ui/fields.tsx';
import { bindSplitRelation, createSecondAccount, getMerchant, getSecondAccount, getSplitRelation, saveMerchant } from '../api/account.ts';
import type { Merchant, SecondAccount } from '../api/types.ts';
import { ACCOUNT_QUERY, CardFace } from './card-panel.tsx';
import { RegionSelect } from './region-select.tsx';

const CATEGORIES = ['art', 'design', 'music', 'photo', 'culture', 'other'] as const;

function Missing({ a }: { a: SecondAccount }) {
  const { t } = useTranslation();
  const items = [
    { key: 'realname', done: !a.missing.includes('realname'), to: '/personal-center/account-settings' },
    { key: 'card', done: !a.missing.includes('card'), to: '/personal-center/payment-management' },
    { key: 'identity', done: !a.missing.includes('identity'), to: '/personal-center/payment-management' },
  ] as const;
  return (
    <ol className="space-y-2" data-testid="account-missing">
      {items.map((i, n) => (
        <li key={i.key} className="flex items-center gap-3 text-sm" data-testid={`account-step-${i.key}`} data-done={i.done ? '1' : '0'}>
          <span className={`flex h-6 w-6 items-center justify-center rounded-full text-xs ${i.done ? 'bg-success text-white' : 'bg-canvas text-ink-faint'}`}>{i.done ? '✓' : n + 1}</span>
          <span className={i.done ? 'text-ink-soft' : 'text-ink'}>{t(`payout.account.steps.${i.key}`)}</span>
          {!i.done && (
            <Link to={i.to} className="text-brand hover:underline">
              {t('payout.account.goDo')}
            </Link>
          )}
        </li>
      ))}
    </ol>
  );
}

function OpenForm({ a, onDone }: { a: SecondAccount; onDone: () => void }) {
  const { t } = useTranslation();
  const [region, setRegion] = useState({ p: '', c: '' });
  const [address, setAddress] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = a.missing.length === 0;
  async function submit() {
    if (!region.p || !region.c) return void toast.warning(t('payout.account.needRegion'));
    if ([...address.trim()].length < 5) return void toast.warning(t('payout.account.needAddress'));
    setBusy(true);
    const r = await createSecondAccount({ provinceCode: region.p, cityCode: region.c, address });
    setBusy(false);
    if (!r.ok) return;
    toast.success(r.message);
    onDone();
  }
  return (
    <div className="space-y-3">
      <RegionSelect provinceCode={region.p} cityCode={region.c} onChange={(p, c) => setRegion({ p, c })} testIdPrefix="account" />
      <Field label={t('payout.account.address')} placeholder={t('payout.account.addressPlaceholder')} testId="account-address" maxLength={100} value={address} onChange={(e) => setAddress(e.target.value)} />
      <button type="button" className="btn-primary h-11 w-full" disabled={!ready || busy} onClick={() => void submit()} data-testid="account-open">
        {busy && <Spinner />}
        {t('payout.account.open')}
      </button>
      {!ready && <p className="text-xs text-ink-faint">{t('payout.account.notReady')}</p>}
    </div>
  );
}

function MerchantSection() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const qc = useQueryClient();
  const m = useQuery({ queryKey: ['payout-merchant', token], queryFn: getMerchant, enabled: token !== '' });
  const split = useQuery({ queryKey: ['payout-split', token], queryFn: getSplitRelation, enabled: token !== '' });
  const [edit, setEdit] = useState<null | { shortName: string; servicePhone: string; category: string; p: string; c: string; address: string }>(null);
  const [busy, setBusy] = useState(false);
  const start = (x: Merchant | null) => setEdit({ shortName: x?.shortName ?? '', servicePhone: x?.servicePhone ?? '', category: x?.category ?? 'art', p: x?.provinceCode ?? '', c: x?.cityCode ?? '', address: x?.address ?? '' });
  async function save() {
    if (!edit) return;
    setBusy(true);
    const r = await saveMerchant(!m.data, { shortName: edit.shortName, servicePhone: edit.servicePhone, category: edit.category, provinceCode: edit.p, cityCode: edit.c, address: edit.address });
    setBusy(false);
    if (!r.ok) return;
    toast.success(r.message);
    setEdit(null);
    void qc.invalidateQueries({ queryKey: ['payout-merchant'] });
  }
  async function bind() {
    const r = await bindSplitRelation();
    if (r.ok) {
      toast.success(r.message);
      void qc.invalidateQueries({ queryKey: ['payout-split'] });
    }
  }
  if (m.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (m.isError) return <p className="text-sm text-ink-faint">{t('payout.loadFailed')}</p>;
  return (
    <section className="card space-y-4 p-5" data-testid="merchant-section">
      <div className="flex items-center justify-between">
        <h2 className="text-base text-ink">{t('payout.merchant.title')}</h2>
        {!edit && (
          <button type="button" className="text-sm text-brand hover:underline" onClick={() => start(m.data ?? null)} data-testid="merchant-edit">
            {m.data ? t('payout.merchant.edit') : t('payout.merchant.create')}
          </button>
        )}
      </div>
      <p className="text-xs leading-5 text-ink-faint">{t('payout.merchant.hint')}</p>
      {edit ? (
        <div className="space-y-3">
          <Field label={t('payout.merchant.shortName')} placeholder={t('payout.merchant.shortName')} testId="merchant-short-name" maxLength={20} value={edit.shortName} onChange={(e) => setEdit({ ...edit, shortName: e.target.value })} />
          <Field label={t('payout.merchant.servicePhone')} placeholder={t('payout.merchant.servicePhone')} testId="merchant-phone" maxLength={16} value={edit.servicePhone} onChange={(e) => setEdit({ ...edit, servicePhone: e.target.value })} />
          <select className="field-input" value={edit.category} onChange={(e) => setEdit({ ...edit, category: e.target.value })} data-testid="merchant-category" aria-label={t('payout.merchant.category')}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>{t(`payout.merchant.categories.${c}`)}</option>
            ))}
          </select>
          <RegionSelect provinceCode={edit.p} cityCode={edit.c} onChange={(p, c) => setEdit({ ...edit, p, c })} testIdPrefix="merchant" />
          <Field label={t('payout.account.address')} placeholder={t('payout.account.addressPlaceholder')} testId="merchant-address" maxLength={100} value={edit.address} onChange={(e) => setEdit({ ...edit, address: e.target.value })} />
          <div className="flex gap-2">
            <button type="button" className="btn-primary h-10 flex-1" disabled={busy} onClick={() => void save()} data-testid="merchant-save">{busy && <Spinner />}{t('payout.merchant.save')}</button>
            <button type="button" className="h-10 flex-1 rounded-control border border-line text-ink-soft" onClick={() => setEdit(null)}>{t('common.cancel')}</button>
          </div>
        </div>
      ) : m.data ? (
        <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm" data-testid="merchant-detail">
          <dt className="text-ink-faint">{t('payout.merchant.merchantNo')}</dt><dd className="tabular text-ink">{m.data.merchantNo}</dd>
          <dt className="text-ink-faint">{t('payout.merchant.shortName')}</dt><dd className="text-ink">{m.data.shortName}</dd>
          <dt className="text-ink-faint">{t('payout.merchant.signName')}</dt><dd className="text-ink">{m.data.signNameMasked}</dd>
          <dt className="text-ink-faint">{t('payout.merchant.servicePhone')}</dt><dd className="tabular text-ink">{m.data.servicePhone}</dd>
          <dt className="text-ink-faint">{t('payout.merchant.category')}</dt><dd className="text-ink">{t(`payout.merchant.categories.${m.data.category as (typeof CATEGORIES)[number]}`)}</dd>
        </dl>
      ) : (
        <p className="text-sm text-ink-soft">{t('payout.merchant.none')}</p>
      )}
      {m.data && (
        <div className="rounded-control bg-canvas p-4 text-sm" data-testid="split-relation" data-bound={split.data ? '1' : '0'}>
          {split.data ? (
            <p className="text-ink-soft">{t('payout.merchant.splitBound', { name: split.data.creatorName, ratio: (split.data.ratioPermille / 10).toFixed(1), time: formatCnDateTime(split.data.boundAt, false) })}</p>
          ) : (
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-ink-soft">{t('payout.merchant.splitNone')}</span>
              <button type="button" className="btn-primary h-9 px-4" onClick={() => void bind()} data-testid="split-bind">{t('payout.merchant.splitBind')}</button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

/** /personal-center/paymentYibao: the payout account — open it, its state, the card it pays to, and a creator's merchant. */
export function AccountPanel() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const qc = useQueryClient();
  const q = useQuery({ queryKey: [ACCOUNT_QUERY, token], queryFn: getSecondAccount, enabled: token !== '', refetchInterval: (query) => (query.state.data?.state === 'opening' ? 5000 : false) });
  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <p className="py-8 text-center text-sm text-ink-faint" data-testid="account-panel" data-state="error">
        {t('payout.loadFailed')}{' '}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>{t('common.retry')}</button>
      </p>
    );
  }
  const a = q.data;
  const refresh = () => void qc.invalidateQueries({ queryKey: [ACCOUNT_QUERY] });
  return (
    <div className="space-y-6" data-testid="account-panel" data-state={a.state}>
      <section className="card space-y-4 p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-base text-ink">{t('payout.account.title')}</h2>
          <span className="rounded-full bg-canvas px-3 py-1 text-xs text-ink-soft" data-testid="account-state">{t(`payout.account.states.${a.state}`)}</span>
        </div>
        <p className="text-xs leading-5 text-ink-faint">{t('payout.account.intro')}</p>
        {a.state === 'active' ? (
          <div className="grid gap-4 md:grid-cols-2">
            <dl className="grid grid-cols-[7rem_1fr] gap-y-2 text-sm">
              <dt className="text-ink-faint">{t('payout.account.accountNo')}</dt><dd className="tabular text-ink" data-testid="account-no">{a.accountNo}</dd>
              <dt className="text-ink-faint">{t('payout.account.holder')}</dt><dd className="text-ink">{a.realname.nameMasked}</dd>
              <dt className="text-ink-faint">{t('payout.account.region')}</dt><dd className="text-ink">{a.region ? `${a.region.provinceName} ${a.region.cityName}` : '-'}</dd>
              <dt className="text-ink-faint">{t('payout.account.openedAt')}</dt><dd className="tabular text-ink">{formatCnDateTime(a.openedAt)}</dd>
            </dl>
            {a.card ? <CardFace card={a.card} /> : <Link to="/personal-center/payment-management" className="text-sm text-brand hover:underline">{t('payout.card.bind')}</Link>}
          </div>
        ) : a.state === 'opening' ? (
          <p className="text-sm text-ink-soft" data-testid="account-opening">{t('payout.account.openingHint')}</p>
        ) : (
          <div className="grid gap-6 md:grid-cols-2">
            <div className="space-y-3">
              {a.state === 'rejected' && <p className="text-sm text-danger" data-testid="account-rejected">{t('payout.account.rejected', { reason: a.rejectReason ?? '' })}</p>}
              <Missing a={a} />
            </div>
            <OpenForm a={a} onDone={refresh} />
          </div>
        )}
      </section>
      {a.isCreator && a.state === 'active' && <MerchantSection />}
    </div>
  );
}
