import { useEffect, useRef, useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { CREATOR_LIMITS, lineOk, MEDIA_TYPES, mediaLinkProblem, textOk } from '@cfx/contract/creator-rules.ts';
import { IMAGE_ACCEPT } from '@cfx/contract/settled-rules.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { toast } from '../../../stores/toast.ts';
import { addMoment, updateCreator } from '../api/own-creator.ts';
import type { CreatorDetail, MediaLinkDraft, Moment } from '../api/types.ts';
import { useImageUploads, type UploadItem } from '../../../components/upload/use-image-uploads.ts';
import { useOwnMediaInfo, type OwnMediaInfo } from './use-own-media-info.ts';

/**
 * The creator's own tools on their page, loaded only when one is opened (its own chunk with the
 * dialog primitives): edit profile (name, intro, avatar and banner uploaded with a preview, media
 * links — loaded afresh with the page's stats from selectCreatorMediaRelatedInfo — checked with the
 * server's rules first) and post a moment (text, up to 9 pictures with
 * upload progress).
 */
export default function OwnerDialogs({
  which,
  creator,
  onClose,
  onSaved,
  onPosted,
}: {
  which: 'edit' | 'post';
  creator: CreatorDetail;
  onClose: () => void;
  onSaved: (c: CreatorDetail) => void;
  onPosted: (m: Moment) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Shell title={which === 'edit' ? t('creators.editProfile') : t('creators.postMoment')} testId={which === 'edit' ? 'creator-edit-dialog' : 'moment-composer'} busy={busy} onClose={onClose}>
      {which === 'edit' ? <EditProfile creator={creator} setBusy={setBusy} onSaved={onSaved} /> : <PostMoment setBusy={setBusy} onPosted={onPosted} />}
    </Shell>
  );
}

function Shell({ title, testId, busy, onClose, children }: { title: string; testId: string; busy: boolean; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open onOpenChange={(o) => !o && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[150] bg-black/50" />
        <Dialog.Content
          data-testid={testId}
          aria-describedby={undefined}
          onPointerDownOutside={(e) => e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-[151] max-h-[92vh] w-[min(560px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface px-6 pb-6 pt-5 shadow-pop"
        >
          <div className="mb-5 flex items-start justify-between gap-4">
            <Dialog.Title className="text-xl font-semibold text-ink">{title}</Dialog.Title>
            <Dialog.Close className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink disabled:opacity-30" aria-label={t('common.close')} disabled={busy} data-testid={`${testId}-close`}>
              ×
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function UploadTile({ item, onRemove, className = 'size-24' }: { item: UploadItem; onRemove?: () => void; className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={`relative overflow-hidden rounded-control border bg-canvas ${item.status === 'error' ? 'border-danger' : 'border-line'} ${className}`} data-testid="creator-upload-item" data-status={item.status} data-key={item.key ?? ''}>
      {item.preview && <img src={item.preview} alt={item.name} className="size-full object-cover" />}
      {item.status === 'uploading' && (
        <div className="absolute inset-x-0 bottom-0 bg-black/55 px-1.5 py-1 text-[11px] text-white" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(item.progress * 100)} aria-label={item.name}>
          <span className="tabular">{t('creators.editor.uploading', { percent: Math.round(item.progress * 100) })}</span>
          <span className="mt-0.5 block h-1 overflow-hidden rounded bg-white/30">
            <span className="block h-full bg-brand transition-[width]" style={{ width: `${Math.round(item.progress * 100)}%` }} />
          </span>
        </div>
      )}
      {item.status === 'error' && (
        <p className="absolute inset-0 flex items-center bg-white/85 p-1.5 text-center text-[11px] leading-4 text-danger" role="alert" data-testid="creator-upload-error">
          {item.error}
        </p>
      )}
      {onRemove && (
        <button type="button" onClick={onRemove} className="absolute right-1 top-1 rounded bg-black/55 px-1.5 text-xs text-white hover:bg-black/75" aria-label={`${t('creators.composer.removeImage')} ${item.name}`} data-testid="creator-upload-remove">
          ×
        </button>
      )}
    </div>
  );
}

function PickButton({ label, onFiles, multiple = false, disabled = false, testId }: { label: string; onFiles: (f: FileList | null) => void; multiple?: boolean; disabled?: boolean; testId: string }) {
  return (
    <label className={`btn-ghost cursor-pointer ${disabled ? 'pointer-events-none opacity-50' : ''}`}>
      <span aria-hidden>＋</span> {label}
      <input
        type="file"
        accept={IMAGE_ACCEPT}
        multiple={multiple}
        disabled={disabled}
        className="sr-only"
        onChange={(e) => {
          onFiles(e.target.files);
          e.target.value = '';
        }}
        data-testid={testId}
      />
    </label>
  );
}

const fieldLabel = 'mb-1.5 block text-sm font-medium text-ink';
const errorText = 'mt-1 text-xs text-danger';

function EditProfile({ creator, setBusy, onSaved }: { creator: CreatorDetail; setBusy: (b: boolean) => void; onSaved: (c: CreatorDetail) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(creator.name);
  const [intro, setIntro] = useState(creator.intro);
  const [links, setLinks] = useState<MediaLinkDraft[]>(creator.mediaLinks.map((m) => ({ ...m })));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);
  const avatar = useImageUploads(1);
  const banner = useImageUploads(1);
  const L = CREATOR_LIMITS;
  const media = useOwnMediaInfo();
  // The server's links replace the page's copy once they arrive, unless the creator already edited
  // the list (possible only after a failed load, when the page's copy is shown).
  const touched = useRef(false);
  useEffect(() => {
    if (media.info && !touched.current) setLinks(media.info.mediaLinks.map((m) => ({ ...m })));
  }, [media.info]);
  const editLinks = (f: (xs: MediaLinkDraft[]) => MediaLinkDraft[]) => {
    touched.current = true;
    setLinks(f);
  };

  const check = () => {
    const e: Record<string, string> = {};
    if (!lineOk(name, L.nameMax)) e.name = t('creators.editor.errors.name', { n: L.nameMax });
    if (!textOk(intro, L.introMax)) e.intro = t('creators.editor.errors.intro', { n: L.introMax });
    links.forEach((link, i) => {
      const p = mediaLinkProblem(link);
      if (p) e[`link${i}`] = t(`creators.editor.errors.${p}`, { i: i + 1, n: L.labelMax });
    });
    return e;
  };

  const save = async () => {
    setServerError('');
    const e = check();
    setErrors(e);
    if (Object.keys(e).length) return;
    if (avatar.uploading || banner.uploading) return setServerError(t('creators.editor.waitUploads'));
    setSaving(true);
    setBusy(true);
    const r = await updateCreator({
      name: name.trim(),
      intro: intro.trim(),
      mediaLinks: links.map((l) => ({ type: l.type, label: l.label.trim(), url: l.url.trim() })),
      ...(avatar.keys[0] ? { avatarKey: avatar.keys[0] } : {}),
      ...(banner.keys[0] ? { bannerKey: banner.keys[0] } : {}),
    });
    setSaving(false);
    setBusy(false);
    if (r.ok && r.data) {
      toast.success(t('creators.editor.saved'));
      onSaved(r.data);
    } else setServerError(r.message || t('common.requestFailed'));
  };

  const setLink = (i: number, patch: Partial<MediaLinkDraft>) => editLinks((xs) => xs.map((x, j) => (j === i ? { ...x, ...patch } : x)));

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      className="space-y-5"
    >
      {media.info && <MediaStats stats={media.info.stats} />}
      <div>
        <label htmlFor="creator-name" className={fieldLabel}>
          {t('creators.editor.name')}
        </label>
        <input id="creator-name" className="field-input" value={name} maxLength={L.nameMax + 10} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name || undefined} data-testid="creator-edit-name" />
        {errors.name && <p className={errorText} data-testid="creator-edit-error-name">{errors.name}</p>}
      </div>
      <div>
        <label htmlFor="creator-intro" className={fieldLabel}>
          {t('creators.editor.intro')}
        </label>
        <textarea
          id="creator-intro"
          className="field-input h-28 py-2"
          value={intro}
          placeholder={t('creators.editor.introPlaceholder')}
          onChange={(e) => setIntro(e.target.value)}
          aria-invalid={!!errors.intro || undefined}
          data-testid="creator-edit-intro"
        />
        <p className="tabular mt-1 text-right text-xs text-ink-faint">{t('creators.composer.count', { n: [...intro.trim()].length, max: L.introMax })}</p>
        {errors.intro && <p className={errorText}>{errors.intro}</p>}
      </div>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-[auto_1fr]">
        <div>
          <span className={fieldLabel}>{t('creators.editor.avatar')}</span>
          <div className="flex items-end gap-3">
            {avatar.items[0] ? <UploadTile item={avatar.items[0]} className="size-20 rounded-full" /> : <img src={creator.avatar} alt="" className="size-20 rounded-full bg-canvas object-cover" />}
            <PickButton label={t('creators.editor.change')} onFiles={avatar.add} testId="creator-edit-avatar-input" />
          </div>
        </div>
        <div>
          <span className={fieldLabel}>{t('creators.editor.banner')}</span>
          <div className="flex items-end gap-3">
            {banner.items[0] ? <UploadTile item={banner.items[0]} className="aspect-[3/1] w-48" /> : <img src={creator.banner} alt="" className="aspect-[3/1] w-48 rounded-control bg-canvas object-cover" />}
            <PickButton label={t('creators.editor.change')} onFiles={banner.add} testId="creator-edit-banner-input" />
          </div>
        </div>
      </div>
      <fieldset>
        <legend className={fieldLabel}>{t('creators.editor.links')}</legend>
        <p className="mb-2 text-xs text-ink-faint">{t('creators.editor.linksHint', { n: L.mediaLinksMax })}</p>
        <MediaLoadState media={media} empty={links.length === 0} />
        <ul className="space-y-3" hidden={media.status === 'loading'}>
          {links.map((link, i) => (
            <li key={i} data-testid="creator-edit-link">
              <div className="flex flex-wrap gap-2">
                <select className="field-input w-36" aria-label={t('creators.editor.linkType')} value={link.type} onChange={(e) => setLink(i, { type: e.target.value })} data-testid="creator-edit-link-type">
                  {MEDIA_TYPES.map((m) => (
                    <option key={m} value={m}>
                      {t(`creators.mediaTypes.${m}`)}
                    </option>
                  ))}
                </select>
                <input className="field-input w-28" aria-label={t('creators.editor.linkLabel')} placeholder={t('creators.editor.linkLabel')} value={link.label} onChange={(e) => setLink(i, { label: e.target.value })} data-testid="creator-edit-link-label" />
                <input className="field-input min-w-0 flex-1" type="url" inputMode="url" aria-label={t('creators.editor.linkUrl')} placeholder={t('creators.editor.linkUrl')} value={link.url} onChange={(e) => setLink(i, { url: e.target.value })} data-testid="creator-edit-link-url" />
                <button type="button" className="text-sm text-ink-faint hover:text-danger" onClick={() => editLinks((xs) => xs.filter((_, j) => j !== i))} aria-label={t('creators.editor.removeLink')}>
                  ×
                </button>
              </div>
              {errors[`link${i}`] && <p className={errorText} data-testid="creator-edit-error-link">{errors[`link${i}`]}</p>}
            </li>
          ))}
        </ul>
        {media.status !== 'loading' && links.length < L.mediaLinksMax && (
          <button type="button" className="btn-ghost mt-3" onClick={() => editLinks((xs) => [...xs, { type: 'website', label: '', url: 'https://' }])} data-testid="creator-edit-add-link">
            <span aria-hidden>＋</span> {t('creators.editor.addLink')}
          </button>
        )}
      </fieldset>
      {serverError && (
        <p className="rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="creator-edit-server-error">
          {serverError}
        </p>
      )}
      <div className="flex justify-end">
        <button type="submit" className="btn-primary min-w-28" disabled={saving || media.status === 'loading'} data-testid="creator-edit-save">
          {saving ? t('common.saving') : t('common.save')}
        </button>
      </div>
    </form>
  );
}

/** The creator's page in numbers, as selectCreatorMediaRelatedInfo counts them now. */
function MediaStats({ stats }: { stats: NonNullable<OwnMediaInfo['info']>['stats'] }) {
  const { t } = useTranslation();
  const items = [
    ['creators.followers', 'followers'],
    ['catalog.statReleases', 'releases'],
    ['creators.moments', 'moments'],
    ['catalog.statGoods', 'goods'],
    ['catalog.statHolders', 'holders'],
  ] as const;
  return (
    <dl className="grid grid-cols-5 gap-2 rounded-control bg-canvas px-3 py-2.5 text-center" data-testid="creator-edit-stats" aria-label={t('creators.editor.stats')}>
      {items.map(([label, key]) => (
        <div key={key} className="flex flex-col-reverse">
          <dt className="text-[11px] text-ink-faint">{t(label)}</dt>
          <dd className="tabular text-base font-semibold text-ink" data-testid={`creator-edit-stat-${key}`}>
            {stats[key]}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Loading, failed (the page's copy is shown, with a retry) and empty states of the media links. */
function MediaLoadState({ media, empty }: { media: OwnMediaInfo; empty: boolean }) {
  const { t } = useTranslation();
  if (media.status === 'loading') {
    return (
      <p className="py-3 text-sm text-ink-faint" role="status" data-testid="creator-edit-links-loading">
        {t('creators.editor.linksLoading')}
      </p>
    );
  }
  return (
    <>
      {media.status === 'error' && (
        <p className="mb-2 flex flex-wrap items-center gap-2 rounded-control bg-warning/10 px-3 py-2 text-xs text-ink-soft" role="alert" data-testid="creator-edit-links-error">
          {t('creators.editor.linksLoadFailed')}
          <button type="button" className="font-medium text-brand hover:underline" onClick={media.retry} data-testid="creator-edit-links-retry">
            {t('common.retry')}
          </button>
        </p>
      )}
      {empty && (
        <p className="py-2 text-sm text-ink-faint" data-testid="creator-edit-links-empty">
          {t('creators.editor.linksEmpty')}
        </p>
      )}
    </>
  );
}

function PostMoment({ setBusy, onPosted }: { setBusy: (b: boolean) => void; onPosted: (m: Moment) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);
  const images = useImageUploads(CREATOR_LIMITS.momentImagesMax);
  const length = [...text.trim()].length;
  const max = CREATOR_LIMITS.momentTextMax;

  const submit = async () => {
    setError('');
    if (!text.trim() && images.keys.length === 0 && !images.uploading) return setError(t('creators.composer.empty'));
    if (length > max) return setError(t('creators.composer.tooLong', { n: max }));
    if (images.uploading) return setError(t('creators.editor.waitUploads'));
    setSending(true);
    setBusy(true);
    const r = await addMoment({ content: text, imageKeys: images.keys });
    setSending(false);
    setBusy(false);
    if (r.ok && r.data) {
      toast.success(t('creators.composer.posted'));
      onPosted(r.data);
    } else setError(r.message || t('common.requestFailed'));
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      className="space-y-4"
    >
      <div>
        <textarea
          className="field-input h-36 py-2"
          value={text}
          placeholder={t('creators.composer.placeholder')}
          aria-label={t('creators.postMoment')}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={length > max || undefined}
          data-testid="moment-composer-text"
        />
        <p className={`tabular mt-1 text-right text-xs ${length > max ? 'text-danger' : 'text-ink-faint'}`} data-testid="moment-composer-count">
          {t('creators.composer.count', { n: length, max })}
        </p>
      </div>
      <div>
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5" data-testid="moment-composer-images">
          {images.items.map((item) => (
            <li key={item.id}>
              <UploadTile item={item} onRemove={() => images.remove(item.id)} className="aspect-square w-full" />
            </li>
          ))}
        </ul>
        <div className="mt-3 flex items-center gap-3">
          <PickButton label={t('creators.composer.addImages')} onFiles={images.add} multiple disabled={images.full} testId="moment-composer-images-input" />
          <span className="text-xs text-ink-faint">{t('creators.composer.imagesHint', { n: CREATOR_LIMITS.momentImagesMax })}</span>
        </div>
      </div>
      {error && (
        <p className="rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="moment-composer-error">
          {error}
        </p>
      )}
      <div className="flex justify-end">
        <button type="submit" className="btn-primary min-w-28" disabled={sending} data-testid="moment-composer-submit">
          {sending ? t('creators.composer.submitting') : t('creators.composer.submit')}
        </button>
      </div>
    </form>
  );
}
