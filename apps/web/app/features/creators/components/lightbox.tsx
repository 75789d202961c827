import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '../../../i18n/index.ts';
import type { MomentImage } from '../api/types.ts';

/**
 * The picture viewer of a moment (its own lazy chunk): the picture at full size within the window,
 * previous / next, the position, close by the button, Escape or a click on the backdrop; arrow keys
 * move. Focus goes to the close button and returns to where it was on close.
 */
export default function Lightbox({ images, index, onClose }: { images: MomentImage[]; index: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [i, setI] = useState(index);
  const close = useRef<HTMLButtonElement>(null);
  const n = images.length;
  const img = images[i]!;

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowLeft') setI((x) => (x - 1 + n) % n);
      else if (e.key === 'ArrowRight') setI((x) => (x + 1) % n);
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      before?.focus?.();
    };
  }, [n, onClose]);

  const nav = 'absolute top-1/2 -translate-y-1/2 rounded-full bg-white/15 px-3 py-2 text-2xl text-white hover:bg-white/30';
  return createPortal(
    <div role="dialog" aria-modal="true" aria-label={t('creators.lightbox.title')} className="fixed inset-0 z-[160] flex items-center justify-center bg-black/85" onClick={onClose} data-testid="lightbox">
      <img
        src={img.url}
        alt={t('creators.imageAlt', { n: i + 1 })}
        width={img.width}
        height={img.height}
        className="max-h-[88vh] max-w-[92vw] object-contain"
        onClick={(e) => e.stopPropagation()}
        data-testid="lightbox-image"
      />
      <button ref={close} type="button" onClick={onClose} className="absolute right-4 top-4 rounded px-3 py-1 text-3xl leading-none text-white hover:bg-white/20" aria-label={t('creators.lightbox.close')} data-testid="lightbox-close">
        ×
      </button>
      {n > 1 && (
        <>
          <button type="button" className={`${nav} left-4`} aria-label={t('creators.lightbox.prev')} onClick={(e) => (e.stopPropagation(), setI((i - 1 + n) % n))} data-testid="lightbox-prev">
            ‹
          </button>
          <button type="button" className={`${nav} right-4`} aria-label={t('creators.lightbox.next')} onClick={(e) => (e.stopPropagation(), setI((i + 1) % n))} data-testid="lightbox-next">
            ›
          </button>
          <p className="tabular absolute bottom-5 left-1/2 -translate-x-1/2 text-sm text-white/80" aria-live="polite" data-testid="lightbox-position">
            {t('creators.lightbox.position', { n: i + 1, total: n })}
          </p>
        </>
      )}
    </div>,
    document.body,
  );
}
