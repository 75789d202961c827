import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatFen } from '@cfx/protocol/money.ts';
import { STUDIO_RULES, type ReleaseDraft, type StudioStats } from '@cfx/contract/studio.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../stores/toast.ts';
import { isCreatorUser, useUserStore } from '../../../stores/user.ts';
import { useImageUploads } from '../../../components/upload/use-image-uploads.ts';
import { MEDIA_UPLOADS_PREFIX } from '@cfx/contract/routes.ts';
import { createDraft, listDrafts, mediaKindOfFile, studioStats, submitDraft, updateDraft, uploadStudioMedia, withdrawDraft } from '../api.ts';
import { bodyOf, emptyForm, formOf, htmlToPlain, textToHtml, type DraftFormState } from '../draft-form.ts';
import { ReleasePreview } from './release-preview.tsx';

/**
 * The creator studio (/personal-center/make): the creator's releases with their sales, holders and
 * income, their drafts with states (and a rejection's reason), and the draft editor with a preview
 * of the release page. Non-creators are told how to become one (项目入驻).
 */
export function StudioPage() {
  const isCreator = useUserStore(isCreatorUser);
  if (!isCreator) return <NotCreator />;
  return <Studio />;
}

function NotCreator() {
  const { t } = useTranslation();
  return (
    <div className="py-12 text-center" data-testid="studio-not-creator">
      <p className="text-ink">{t('studio.notCreator')}</p>
      <p className="mt-2 text-sm text-ink-faint">{t('studio.notCreatorHint')}</p>
      <Link to="/project-enter" className="btn-primary mt-5" data-testid="studio-apply">
        {t('studio.apply')}
      </Link>
    </div>
  );
}

function LoadError({ onRetry, testId }: { onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="py-8 text-center" data-testid={testId}>
      <p className="text-ink-faint">{t('studio.loadError')}</p>
      <button type="button" className="btn-ghost mt-3" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

const unwrap = async <T,>(p: Promise<{ ok: boolean; data: T | null; message: string }>) => {
  const r = await p;
  if (!r.ok || r.data === null) throw new Error(r.message);
  return r.data;
};

function Studio() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const stats = useQuery({ queryKey: ['studio', 'stats'], queryFn: ({ signal }) => unwrap(studioStats(signal)) });
  const drafts = useQuery({ queryKey: ['studio', 'drafts'], queryFn: ({ signal }) => unwrap(listDrafts(signal)) });
  const [editing, setEditing] = useState<ReleaseDraft | 'new' | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['studio'] });
  if (editing) {
    return (
      <DraftEditor
        draft={editing === 'new' ? null : editing}
        onDone={() => {
          setEditing(null);
          refresh();
        }}
      />
    );
  }
  return (
    <div className="space-y-8" data-testid="studio">
      <section aria-labelledby="studio-releases-title">
        <h2 id="studio-releases-title" className="mb-3 text-base text-ink">
          {t('studio.releases')}
        </h2>
        {stats.isPending ? <LoadingBlock label={t('common.loading')} /> : stats.isError ? <LoadError onRetry={() => void stats.refetch()} testId="studio-stats-error" /> : <StatsTable s={stats.data} />}
      </section>
      <section aria-labelledby="studio-drafts-title">
        <div className="mb-3 flex items-center justify-between">
          <h2 id="studio-drafts-title" className="text-base text-ink">
            {t('studio.drafts')}
          </h2>
          <button type="button" className="btn-primary" onClick={() => setEditing('new')} data-testid="studio-new">
            {t('studio.newDraft')}
          </button>
        </div>
        {drafts.isPending ? (
          <LoadingBlock label={t('common.loading')} />
        ) : drafts.isError ? (
          <LoadError onRetry={() => void drafts.refetch()} testId="studio-drafts-error" />
        ) : drafts.data.list.length === 0 ? (
          <p className="py-8 text-center text-sm text-ink-faint" data-testid="studio-drafts-empty">
            {t('studio.noDrafts')}
          </p>
        ) : (
          <ul className="space-y-3">
            {drafts.data.list.map((d) => (
              <DraftRow key={d.id} d={d} onEdit={() => setEditing(d)} onChanged={refresh} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function StatsTable({ s }: { s: StudioStats }) {
  const { t } = useTranslation();
  return (
    <div data-testid="studio-stats">
      <div className="mb-3 grid grid-cols-2 gap-3 md:grid-cols-4">
        {[
          [t('studio.totalSold'), String(s.totals.sold), 'studio-total-sold'],
          [t('studio.primaryIncome'), formatFen(s.totals.primaryIncomeFen), 'studio-total-primary'],
          [t('studio.royaltyIncome'), formatFen(s.totals.royaltyIncomeFen), 'studio-total-royalty'],
          [t('studio.balance'), formatFen(s.balanceFen), 'studio-balance'],
        ].map(([label, value, id]) => (
          <div key={id} className="rounded-card border border-line p-3">
            <p className="text-xs text-ink-faint">{label}</p>
            <p className="tabular mt-1 text-lg text-ink" data-testid={id}>
              {value}
            </p>
          </div>
        ))}
      </div>
      <p className="mb-3 text-xs text-ink-faint">
        {t('studio.incomeHint')}{' '}
        <Link to="/personal-center/payment" className="text-brand hover:underline" data-testid="studio-withdraw">
          {t('studio.withdraw')}
        </Link>
      </p>
      {s.releases.length === 0 ? (
        <p className="py-6 text-center text-sm text-ink-faint" data-testid="studio-releases-empty">
          {t('studio.noReleases')}
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs text-ink-faint">
                <th className="px-2 py-2">{t('studio.col.name')}</th>
                <th className="px-2 py-2">{t('studio.col.status')}</th>
                <th className="px-2 py-2">{t('studio.col.sold')}</th>
                <th className="px-2 py-2">{t('studio.col.holders')}</th>
                <th className="px-2 py-2">{t('studio.col.primary')}</th>
                <th className="px-2 py-2">{t('studio.col.royalty')}</th>
              </tr>
            </thead>
            <tbody>
              {s.releases.map((r) => (
                <tr key={r.projectId} className="border-t border-line" data-testid="studio-release" data-project-id={r.projectId}>
                  <td className="px-2 py-2">
                    <Link to={`/projects/detail/${r.projectId}`} className="text-ink hover:text-brand">
                      {r.name}
                    </Link>
                  </td>
                  <td className="px-2 py-2">{t(`catalog.status.${r.status}`)}</td>
                  <td className="tabular px-2 py-2" data-testid="studio-release-sold">{`${r.sold} / ${r.supply}`}</td>
                  <td className="tabular px-2 py-2" data-testid="studio-release-holders">{r.holders}</td>
                  <td className="tabular px-2 py-2" data-testid="studio-release-primary">{formatFen(r.primaryIncomeFen)}</td>
                  <td className="tabular px-2 py-2">{formatFen(r.royaltyIncomeFen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function DraftRow({ d, onEdit, onChanged }: { d: ReleaseDraft; onEdit: () => void; onChanged: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const withdraw = async () => {
    setBusy(true);
    const r = await withdrawDraft(d.id);
    setBusy(false);
    if (r.ok) {
      toast.success(r.message);
      onChanged();
    }
  };
  return (
    <li className="flex items-center gap-4 rounded-card border border-line p-3" data-testid="studio-draft" data-draft-id={d.id} data-state={d.state}>
      {d.cover ? <img src={d.cover} alt="" className="size-14 shrink-0 rounded object-cover" /> : <div className="size-14 shrink-0 rounded bg-canvas" />}
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-ink">{d.title || t('studio.untitled')}</p>
        <p className="mt-0.5 text-xs text-ink-faint">
          <span data-testid="studio-draft-state">{t(`studio.state.${d.state}`)}</span> · {formatCnDateTime(d.updatedAt, false)}
        </p>
        {d.state === 'rejected' && d.reviewReason && (
          <p className="mt-1 text-sm text-danger" data-testid="studio-draft-reason">
            {t('studio.rejectedReason', { reason: d.reviewReason })}
          </p>
        )}
      </div>
      {(d.state === 'draft' || d.state === 'rejected') && (
        <button type="button" className="btn-ghost shrink-0" onClick={onEdit} data-testid="studio-draft-edit">
          {t('studio.edit')}
        </button>
      )}
      {d.state === 'submitted' && (
        <button type="button" className="btn-ghost shrink-0" onClick={() => void withdraw()} disabled={busy} data-testid="studio-draft-withdraw">
          {t('studio.withdrawSubmission')}
        </button>
      )}
      {d.state === 'approved' && d.projectId && (
        <Link to={`/projects/detail/${d.projectId}`} className="btn-ghost shrink-0" data-testid="studio-draft-release">
          {t('studio.viewRelease')}
        </Link>
      )}
    </li>
  );
}

function DraftEditor({ draft, onDone }: { draft: ReleaseDraft | null; onDone: () => void }) {
  const { t } = useTranslation();
  const nickname = useUserStore((s) => s.nickname);
  const [f, setF] = useState<DraftFormState>(() => (draft ? { ...formOf(draft), storyHtml: htmlToPlain(draft.storyHtml) } : emptyForm()));
  const [id, setId] = useState<number | null>(draft?.id ?? null);
  const [busy, setBusy] = useState(false);
  const uploads = useImageUploads(1);
  const uploaded = uploads.items.find((i) => i.status === 'done');
  const cover = uploaded ? { key: uploaded.key!, url: uploaded.url ?? uploaded.preview ?? null } : { key: f.coverKey, url: f.cover };
  const set = (k: keyof DraftFormState) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  // The artwork's video / 3D model (optional; the cover is its poster).
  const [media, setMedia] = useState<{ kind: 'image' | 'video' | 'model'; key: string } | null>(draft?.mediaKind && draft.mediaKey ? { kind: draft.mediaKind, key: draft.mediaKey } : null);
  const [mediaState, setMediaState] = useState<{ pct: number } | { error: string } | null>(null);
  const onMedia = async (file: File | undefined) => {
    if (!file) return;
    setMediaState({ pct: 0 });
    const r = await uploadStudioMedia(file, (p) => setMediaState({ pct: Math.round(p * 100) }));
    if (r.ok) {
      setMedia({ kind: mediaKindOfFile(file.name), key: r.data.key });
      setMediaState(null);
    } else setMediaState({ error: r.message || t('studio.mediaFailed') });
  };
  const body = () => ({ ...bodyOf({ ...f, storyHtml: textToHtml(f.storyHtml), coverKey: cover.key }), mediaKind: media?.kind ?? null, mediaKey: media?.key ?? null });

  /** Saves (creates the draft the first time); the saved draft, or null when refused (the message is shown). */
  const save = async (): Promise<number | null> => {
    const r = id === null ? await createDraft(body()) : await updateDraft(id, body());
    if (!r.ok) return null;
    setId(r.data.id);
    return r.data.id;
  };
  const onSave = async () => {
    setBusy(true);
    const saved = await save();
    setBusy(false);
    if (saved !== null) toast.success(t('studio.saved'));
  };
  const onSubmit = async () => {
    setBusy(true);
    const saved = await save();
    const r = saved === null ? null : await submitDraft(saved);
    setBusy(false);
    if (r?.ok) {
      toast.success(r.message);
      onDone();
    }
  };
  const preview = bodyOf({ ...f, storyHtml: textToHtml(f.storyHtml), coverKey: cover.key });
  const field = (k: keyof DraftFormState, label: string, props: React.InputHTMLAttributes<HTMLInputElement> & { testId: string; hint?: string }) => {
    const { testId, hint, ...rest } = props;
    return (
      <label className="block text-sm">
        <span className="text-ink-soft">{label}</span>
        <input className="field-input mt-1 h-10 w-full" value={String(f[k] ?? '')} onChange={(e) => set(k)(e.target.value)} data-testid={testId} {...rest} />
        {hint && <span className="mt-0.5 block text-xs text-ink-faint">{hint}</span>}
      </label>
    );
  };
  return (
    <div data-testid="studio-editor" data-draft-id={id ?? ''}>
      <div className="mb-4 flex items-center justify-between">
        <h2 className="text-base text-ink">{draft ? t('studio.editDraft') : t('studio.newDraft')}</h2>
        <button type="button" className="btn-ghost" onClick={onDone} data-testid="studio-back">
          {t('studio.back')}
        </button>
      </div>
      {draft?.state === 'rejected' && draft.reviewReason && (
        <p className="mb-4 rounded-card border border-danger/40 bg-danger/5 p-3 text-sm text-danger" data-testid="studio-editor-reason">
          {t('studio.rejectedReason', { reason: draft.reviewReason })}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            void onSubmit();
          }}
        >
          {field('title', t('studio.field.title'), { testId: 'studio-title', maxLength: STUDIO_RULES.titleMax })}
          <label className="block text-sm">
            <span className="text-ink-soft">{t('studio.field.story')}</span>
            <textarea className="field-input mt-1 min-h-32 w-full py-2" value={f.storyHtml} onChange={(e) => set('storyHtml')(e.target.value)} data-testid="studio-story" />
          </label>
          <div className="text-sm">
            <span className="text-ink-soft">{t('studio.field.cover')}</span>
            <div className="mt-1 flex items-center gap-3">
              {cover.url ? <img src={cover.url} alt="" className="size-16 rounded object-cover" data-testid="studio-cover-img" /> : <div className="size-16 rounded bg-canvas" />}
              <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" onChange={(e) => uploads.add(e.target.files)} data-testid="studio-cover" />
            </div>
            {uploads.items.map((i) =>
              i.status === 'error' ? (
                <p key={i.id} className="mt-1 text-xs text-danger">
                  {i.error}
                </p>
              ) : i.status === 'uploading' ? (
                <p key={i.id} className="mt-1 text-xs text-ink-faint">
                  {t('studio.uploading', { pct: Math.round(i.progress * 100) })}
                </p>
              ) : null,
            )}
          </div>
          <div className="text-sm">
            <span className="text-ink-soft">{t('studio.field.media')}</span>
            <div className="mt-1 flex flex-wrap items-center gap-3">
              <input type="file" accept="video/mp4,video/webm,.glb,model/gltf-binary" onChange={(e) => void onMedia(e.target.files?.[0])} data-testid="studio-media" />
              {media && (
                <>
                  <span className="text-xs text-ink-faint" data-testid="studio-media-kind">
                    {t(`studio.mediaKind.${media.kind}`)}
                  </span>
                  <button type="button" className="btn-ghost h-8" onClick={() => setMedia(null)} data-testid="studio-media-remove">
                    {t('studio.mediaRemove')}
                  </button>
                </>
              )}
            </div>
            <span className="mt-0.5 block text-xs text-ink-faint">{t('studio.hint.media')}</span>
            {mediaState && 'pct' in mediaState && <p className="mt-1 text-xs text-ink-faint">{t('studio.uploading', { pct: mediaState.pct })}</p>}
            {mediaState && 'error' in mediaState && <p className="mt-1 text-xs text-danger">{mediaState.error}</p>}
          </div>
          <div className="grid grid-cols-2 gap-3">
            {field('supply', t('studio.field.supply'), { testId: 'studio-supply', inputMode: 'numeric', hint: t('studio.hint.supply', { max: STUDIO_RULES.supplyMax }) })}
            {field('price', t('studio.field.price'), { testId: 'studio-price', inputMode: 'decimal', hint: t('studio.hint.price') })}
            {field('start', t('studio.field.start'), { testId: 'studio-start', type: 'datetime-local', hint: t('studio.hint.start') })}
            {field('limit', t('studio.field.limit'), { testId: 'studio-limit', inputMode: 'numeric' })}
            {field('holdingDays', t('studio.field.holdingDays'), { testId: 'studio-holding', inputMode: 'numeric' })}
            {field('royalty', t('studio.field.royalty'), { testId: 'studio-royalty', inputMode: 'decimal', hint: t('studio.hint.royalty') })}
          </div>
          <div className="flex gap-3 pt-2">
            <button type="button" className="btn-ghost" disabled={busy || uploads.uploading} onClick={() => void onSave()} data-testid="studio-save">
              {t('studio.save')}
            </button>
            <button type="submit" className="btn-primary" disabled={busy || uploads.uploading} data-testid="studio-submit">
              {t('studio.submit')}
            </button>
          </div>
        </form>
        <ReleasePreview
          r={{
            name: preview.title ?? '',
            cover: cover.url,
            media: media ? { kind: media.kind, url: MEDIA_UPLOADS_PREFIX + media.key } : null,
            creatorName: nickname,
            storyHtml: preview.storyHtml ?? '',
            supply: preview.supply ?? null,
            priceFen: preview.priceFen ?? null,
            saleStartAt: preview.saleStartAt ?? null,
            holdingDays: preview.holdingDays ?? null,
          }}
        />
      </div>
    </div>
  );
}
