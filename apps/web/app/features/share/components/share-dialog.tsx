import { useEffect, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from '../../../i18n/index.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { myInviteCode } from '../api/get-invite-code.ts';
import { posterUrl, shareLink, type ShareTarget } from '../links.ts';

type PosterState = 'loading' | 'ready' | 'failed';

/**
 * The share dialog: the server-rendered poster (artwork, name, price, creator, a QR code to the
 * page), a button that saves it, and the page's link to copy. A logged-in sharer's invite code goes
 * into both (the register view opens with it for the friend); while it is read the poster waits.
 */
export default function ShareDialog({ target, open, onOpenChange }: { target: ShareTarget; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t, lang } = useTranslation();
  const token = useUserStore((s) => s.token);
  // undefined: still reading my invite code.
  const [code, setCode] = useState<string | undefined>(token ? undefined : '');
  const [poster, setPoster] = useState<PosterState>('loading');
  const [origin, setOrigin] = useState('');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => setOrigin(window.location.origin), []);
  useEffect(() => {
    if (!token) {
      setCode('');
      return;
    }
    let live = true;
    void myInviteCode().then((c) => live && setCode(c));
    return () => {
      live = false;
    };
  }, [token]);

  const src = code === undefined ? '' : `${posterUrl(target, lang, code)}${attempt ? `&retry=${attempt}` : ''}`;
  useEffect(() => setPoster('loading'), [src]);
  const link = origin ? shareLink(origin, target, code) : '';
  const copy = async () => ((await copyText(link)) ? toast.success(t('common.copied')) : toast.warning(t('common.copyFailed')));

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[150] bg-black/50" />
        <Dialog.Content
          data-testid="share-dialog"
          aria-describedby="share-hint"
          className="fixed left-1/2 top-1/2 z-[151] max-h-[94vh] w-[min(420px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface px-5 pb-5 pt-4 shadow-pop"
        >
          <div className="mb-3 flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-ink">{t('share.title')}</Dialog.Title>
            <Dialog.Close className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink" aria-label={t('common.close')} data-testid="share-close">
              ×
            </Dialog.Close>
          </div>
          <div className="relative mx-auto aspect-[750/1200] w-full max-w-[300px] overflow-hidden rounded-control bg-canvas">
            {src && (
              <img
                key={src}
                src={src}
                alt={t('share.posterAlt', { name: target.name })}
                className={`size-full object-contain transition-opacity ${poster === 'ready' ? 'opacity-100' : 'opacity-0'}`}
                onLoad={() => setPoster('ready')}
                onError={() => setPoster('failed')}
                data-testid="share-poster"
                data-state={poster}
              />
            )}
            {poster !== 'ready' && (
              <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 text-sm text-ink-faint" role="status">
                {poster === 'failed' ? (
                  <>
                    <span data-testid="share-poster-failed">{t('share.posterFailed')}</span>
                    <button type="button" className="text-brand hover:underline" onClick={() => setAttempt((n) => n + 1)}>
                      {t('common.retry')}
                    </button>
                  </>
                ) : (
                  <>
                    <Spinner /> {t('share.posterLoading')}
                  </>
                )}
              </div>
            )}
          </div>
          <p id="share-hint" className="mt-3 text-center text-xs text-ink-faint">
            {code ? t('share.withInvite', { code }) : t('share.hint')}
          </p>
          <div className="mt-4 grid grid-cols-2 gap-3">
            <a
              href={src || undefined}
              download={`poster-${target.type}-${target.id}.png`}
              className={`btn-primary ${poster === 'ready' ? '' : 'pointer-events-none opacity-60'}`}
              aria-disabled={poster !== 'ready'}
              data-testid="share-download"
            >
              {t('share.download')}
            </a>
            <button type="button" className="btn-ghost" onClick={() => void copy()} disabled={!link} data-testid="share-copy">
              {t('share.copyLink')}
            </button>
          </div>
          <label className="mt-4 block text-xs text-ink-faint">
            {t('share.link')}
            <input readOnly className="field-input mt-1 h-9 text-xs" value={link} onFocus={(e) => e.target.select()} data-testid="share-link" />
          </label>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
