import { useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { toast } from '../../../stores/toast.ts';
import { fetchPrivateImage, uploadIdentity } from '../api/identity.ts';
import type { SecondAccount } from '../api/types.ts';

/** One side of the ID card: a blurred thumbnail (the photo is the owner's only, fetched with the token), re-upload until the account opens. */
function Side({ side, photo, locked, onChange }: { side: 'front' | 'back'; photo: SecondAccount['identity']['front']; locked: boolean; onChange: () => void }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [reveal, setReveal] = useState(false);
  const photoUrl = photo?.url;
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    if (photoUrl) void fetchPrivateImage(photoUrl).then((u) => (live ? setSrc((url = u)) : u && URL.revokeObjectURL(u)));
    else setSrc(null);
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [photoUrl]);

  async function pick(file: File | undefined) {
    if (!file) return;
    setProgress(0);
    const r = await uploadIdentity(side, file, setProgress);
    setProgress(null);
    if (!r.ok) return void toast.error(r.message || t('payout.identity.failed'));
    toast.success(r.message);
    onChange();
  }
  return (
    <div className="space-y-2" data-testid={`identity-${side}`} data-uploaded={photo ? '1' : '0'}>
      <p className="text-sm text-ink">{side === 'front' ? t('payout.identity.front') : t('payout.identity.back')}</p>
      <div className="relative flex aspect-[1.58] items-center justify-center overflow-hidden rounded-control border border-dashed border-line bg-canvas">
        {src ? (
          <button type="button" className="h-full w-full" onClick={() => setReveal((v) => !v)} aria-label={t('payout.identity.toggle')}>
            <img src={src} alt="" className={`h-full w-full object-cover transition ${reveal ? '' : 'blur-md'}`} />
            {!reveal && <span className="absolute inset-0 flex items-center justify-center text-xs text-white drop-shadow">{t('payout.identity.masked')}</span>}
          </button>
        ) : (
          <span className="px-4 text-center text-xs text-ink-faint">{progress !== null ? t('payout.identity.uploading', { p: Math.round(progress * 100) }) : t('payout.identity.empty')}</span>
        )}
      </div>
      {!locked && (
        <label className="inline-block cursor-pointer rounded-control border border-line px-3 py-1 text-sm text-ink-soft hover:border-brand hover:text-brand">
          {photo ? t('payout.identity.replace') : t('payout.identity.upload')}
          <input type="file" accept="image/jpeg,image/png,image/webp" className="sr-only" data-testid={`identity-${side}-input`} onChange={(e) => void pick(e.target.files?.[0])} />
        </label>
      )}
    </div>
  );
}

/** The ID-card photos the payout account is opened with (private images; shown blurred, to the owner only). */
export function IdentityUpload({ account, onChange }: { account: SecondAccount; onChange: () => void }) {
  const { t } = useTranslation();
  const locked = account.state === 'active' || account.state === 'opening';
  return (
    <section className="card p-5" data-testid="identity-upload">
      <h2 className="mb-1 text-base text-ink">{t('payout.identity.title')}</h2>
      <p className="mb-4 text-xs text-ink-faint">{t('payout.identity.hint')}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Side side="front" photo={account.identity.front} locked={locked} onChange={onChange} />
        <Side side="back" photo={account.identity.back} locked={locked} onChange={onChange} />
      </div>
    </section>
  );
}
