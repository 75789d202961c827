import { createElement, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';

type Phase = 'poster' | 'loading' | 'ready' | 'failed';

/** Loads the viewer's module once (a separate chunk: `@google/model-viewer` and three.js). */
let viewerModule: Promise<unknown> | undefined;
const loadViewer = () => (viewerModule ??= import('@google/model-viewer'));

/**
 * A GLB model: the poster image (server-rendered, no script needed) until the element comes near
 * the viewport, then `@google/model-viewer` is imported and `<model-viewer>` shown over the poster
 * (which it keeps until the model is drawn). Without IntersectionObserver, a button loads it.
 */
export function ModelView({ src, poster, alt, width, height, className = '' }: { src: string; poster: string; alt: string; width: number; height: number; className?: string }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>('poster');

  const start = () => {
    setPhase((p) => (p === 'ready' ? p : 'loading'));
    loadViewer().then(
      () => setPhase('ready'),
      () => {
        viewerModule = undefined;
        setPhase('failed');
      },
    );
  };

  useEffect(() => {
    const el = box.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          io.disconnect();
          start();
        }
      },
      { rootMargin: '200px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, []);

  return (
    <div ref={box} className={`relative ${className}`} style={{ aspectRatio: `${width} / ${height}` }} data-testid="media-model">
      {phase === 'ready' ? (
        createElement('model-viewer', {
          src,
          poster,
          alt,
          'camera-controls': '',
          'touch-action': 'pan-y',
          'auto-rotate': '',
          loading: 'eager',
          style: { width: '100%', height: '100%', display: 'block' },
        })
      ) : (
        <img src={poster} alt={alt} width={width} height={height} loading="lazy" decoding="async" className="h-full w-full object-cover" />
      )}
      {phase === 'loading' && (
        <span role="status" className="absolute inset-x-0 bottom-2 mx-auto w-fit rounded bg-black/60 px-2 py-1 text-xs text-white">
          {t('media.loadingModel')}
        </span>
      )}
      {(phase === 'poster' || phase === 'failed') && (
        <button type="button" onClick={start} className="absolute inset-x-0 bottom-2 mx-auto w-fit rounded bg-black/60 px-3 py-1 text-xs text-white">
          {phase === 'failed' ? t('media.modelFailed') : t('media.loadModel')}
        </button>
      )}
    </div>
  );
}
