import { useState } from 'react';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { BOX_LIMITS } from '@cfx/contract/admin-catalog-rules.ts';
import type { AdminReleaseDetail } from '@cfx/contract/admin-catalog.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { adminApi } from '../api.ts';
import { ConfirmDialog } from '../components/dialogs.tsx';
import { Badge, Facts, notify, when } from '../components/ui.tsx';
import { useAdminT } from '../i18n.ts';
import { ImageField, move, RowMoves } from './fields.tsx';
import { intOf } from '../../../lib/form-input.ts';

interface Kind {
  name: string;
  rarity: string;
  count: string;
  image: string;
}

/**
 * Blind-box settings (configureBoxRelease on the server): the odds table — kinds with names,
 * rarities, images and counts that must add up to the supply — and, once it is a box, the
 * published commitment, reveal epoch and reveal state with the public proof page.
 */
export function BoxEditor({ release, onSaved }: { release: AdminReleaseDetail; onSaved: (d: AdminReleaseDetail) => void }) {
  const t = useAdminT();
  const box = release.box;
  const allowed = release.role === 'release' || release.role === 'box';
  const locked = release.locks.boxLocked;
  const [kinds, setKinds] = useState<Kind[]>(() =>
    box ? box.kinds.map((k) => ({ name: k.name, rarity: k.rarity, count: String(k.count), image: k.image })) : [{ name: '', rarity: '', count: String(release.supply), image: '' }],
  );
  const [revealIn, setRevealIn] = useState('1');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [confirm, setConfirm] = useState(false);
  const sum = kinds.reduce((n, k) => n + (intOf(k.count) ?? 0), 0);
  const setKind = (i: number, patch: Partial<Kind>) => setKinds((ks) => ks.map((k, j) => (j === i ? { ...k, ...patch } : k)));

  const save = async (): Promise<string | null> => {
    setError('');
    const body = {
      projectId: release.id,
      kinds: kinds.map((k) => ({ name: k.name, rarity: k.rarity, count: intOf(k.count) ?? -1, image: k.image || null })),
      ...(box ? {} : { revealInEpochs: intOf(revealIn) ?? 1 }),
    };
    setBusy(true);
    const r = await adminApi<AdminReleaseDetail>(AdminPaths.releaseBox, body);
    setBusy(false);
    if (!r.ok) {
      setError(r.message);
      return r.message;
    }
    notify.ok(r.message);
    onSaved(r.data);
    return null;
  };

  if (!allowed) {
    return (
      <p className="card p-6 text-sm text-ink-faint" data-testid="admin-box-not-allowed">
        {t('box.notAllowed')}
      </p>
    );
  }
  return (
    <div className="space-y-4" data-testid="admin-box">
      <p className="text-sm text-ink-faint">{t('box.intro')}</p>
      {box && (
        <div className="card p-5" data-testid="admin-box-state" data-status={box.status}>
          <Facts
            rows={[
              [t('box.status'), <Badge key="s" tone={box.status === 'revealed' ? 'good' : 'info'}>{t(`box.states.${box.status}`)}</Badge>],
              [t('box.commitment'), <span key="c" className="break-all font-mono text-xs" data-testid="admin-box-commitment">{box.commitment}</span>],
              [t('box.algorithm'), box.algorithm],
              [t('box.revealEpoch'), box.revealEpoch],
              [t('box.revealedAt'), when(box.revealedAt)],
              [t('box.blockHash'), <span key="b" className="break-all font-mono text-xs">{box.blockHash ?? '—'}</span>],
              [t('box.items'), <a key="i" className="text-brand hover:underline" href={`/admin/releases?id=${box.itemProjectId}`}>#{box.itemProjectId}</a>],
              [t('box.proof'), <a key="p" className="text-brand hover:underline" href={box.proofUrl} target="_blank" rel="noreferrer">{box.proofUrl}</a>],
            ]}
          />
        </div>
      )}
      {locked && <p className="rounded bg-amber-50 px-3 py-2 text-sm text-warning">{t('box.locked')}</p>}
      <div className="space-y-3">
        {kinds.map((k, i) => (
          <div key={i} className="card grid gap-3 p-4 md:grid-cols-[1fr_120px_100px_auto]" data-testid="admin-box-kind">
            <input className="field-input h-10" placeholder={t('box.kindName')} maxLength={BOX_LIMITS.kindNameMax} value={k.name} disabled={locked} onChange={(e) => setKind(i, { name: e.target.value })} data-testid="admin-box-kind-name" />
            <input className="field-input h-10" placeholder={t('box.rarity')} maxLength={BOX_LIMITS.rarityMax} value={k.rarity} disabled={locked} onChange={(e) => setKind(i, { rarity: e.target.value })} data-testid="admin-box-kind-rarity" />
            <input className="field-input h-10" inputMode="numeric" placeholder={t('box.count')} value={k.count} disabled={locked} onChange={(e) => setKind(i, { count: e.target.value })} data-testid="admin-box-kind-count" />
            <span className="self-center text-right">{!locked && <RowMoves index={i} count={kinds.length} onMove={(a, b) => setKinds((ks) => move(ks, a, b))} onRemove={() => setKinds((ks) => ks.filter((_, j) => j !== i))} />}</span>
            <div className="md:col-span-4">
              <ImageField label={t('box.image')} value={k.image} onChange={(url) => setKind(i, { image: url })} uploadPath={AdminPaths.releaseUpload} testId="admin-box-kind-image" disabled={locked} />
            </div>
          </div>
        ))}
      </div>
      <p className={`text-sm ${sum === release.supply ? 'text-success' : 'text-danger'}`} data-testid="admin-box-sum">
        {t('box.sum', { sum, supply: release.supply })}
      </p>
      {!box && !locked && (
        <label className="block max-w-xs text-sm">
          <span className="mb-1 block text-ink-soft">{t('box.revealIn')}</span>
          <input className="field-input h-10" inputMode="numeric" value={revealIn} onChange={(e) => setRevealIn(e.target.value)} data-testid="admin-box-reveal-in" />
        </label>
      )}
      {error && (
        <p className="text-sm text-danger" role="alert" data-testid="admin-box-error">
          {error}
        </p>
      )}
      {!locked && (
        <div className="flex flex-wrap gap-3">
          <button type="button" className="btn-ghost" disabled={kinds.length >= BOX_LIMITS.kindsMax} onClick={() => setKinds((ks) => [...ks, { name: '', rarity: '', count: '0', image: '' }])} data-testid="admin-box-add">
            {t('box.addKind')}
          </button>
          {box ? (
            <button type="button" className="btn-primary" disabled={busy} onClick={() => void save()} data-testid="admin-box-save">
              {busy && <Spinner />} {t('box.save')}
            </button>
          ) : (
            <button type="button" className="btn-primary" onClick={() => setConfirm(true)} data-testid="admin-box-make">
              {t('box.make')}
            </button>
          )}
        </div>
      )}
      <ConfirmDialog open={confirm} onClose={() => setConfirm(false)} title={t('box.makeTitle')} intro={t('box.makeIntro')} confirmLabel={t('box.make')} testId="admin-box-make-dialog" onConfirm={save} />
    </div>
  );
}
