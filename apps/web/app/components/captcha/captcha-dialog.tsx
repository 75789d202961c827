import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from '../../i18n/index.ts';
import { toast } from '../../stores/toast.ts';
import { Spinner } from '../ui/spinner.tsx';
import { checkCaptcha, getCaptcha, type CaptchaChallenge } from './captcha-api.ts';
import { solvePow } from './pow.ts';

type Phase = 'loading' | 'ready' | 'checking' | 'passed' | 'error';

interface DragState {
  pointerId: number;
  startClientX: number;
  startTime: number;
  track: [number, number][];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Self-hosted slider captcha. The background is shown at its natural size (scaled down only when
 * the dialog is narrower); the piece image is a full-height transparent strip (the piece at its
 * row) placed at top=0, left=x. Dragging the handle records [[elapsedMs, x], …] in IMAGE pixels;
 * on release the position, the trace and the challenge's proof of work are checked. The proof of
 * work is searched from the moment the challenge arrives, in short slices that leave the page
 * responsive, so it is usually ready before the drag ends. Success gives a one-time
 * NECaptchaValidate token (2 minutes) for the SMS request.
 */
export function CaptchaDialog({
  open,
  onOpenChange,
  onPass,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPass: (token: string) => void;
}) {
  const { t } = useTranslation();
  const [challenge, setChallenge] = useState<CaptchaChallenge | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [x, setX] = useState(0);
  const xRef = useRef(0);
  const drag = useRef<DragState | null>(null);
  const [wrapWidth, setWrapWidth] = useState(0);
  // The current challenge's proof of work (a pending search), aborted when another challenge loads.
  const pow = useRef<{ promise: Promise<string>; abort: AbortController } | null>(null);
  const resizeObserver = useRef<ResizeObserver | null>(null);

  // Measure the available width (callback ref: the content mounts inside a portal).
  const wrapRef = useCallback((node: HTMLDivElement | null) => {
    resizeObserver.current?.disconnect();
    if (!node) return;
    setWrapWidth(node.clientWidth);
    resizeObserver.current = new ResizeObserver(() => setWrapWidth(node.clientWidth));
    resizeObserver.current.observe(node);
  }, []);

  const moveTo = (value: number) => {
    xRef.current = value;
    setX(value);
  };

  const stopPow = () => {
    pow.current?.abort.abort();
    pow.current = null;
  };

  const load = useCallback(async () => {
    setPhase('loading');
    moveTo(0);
    drag.current = null;
    stopPow();
    const r = await getCaptcha();
    if (r.ok && r.data) {
      const abort = new AbortController();
      const promise = solvePow(r.data.id, r.data.pow.bits, abort.signal);
      promise.catch(() => undefined); // aborted: a newer challenge replaced it
      pow.current = { promise, abort };
      setChallenge(r.data);
      setPhase('ready');
    } else {
      setChallenge(null);
      setPhase('error');
      if (r.message) toast.error(r.message);
    }
  }, []);

  useEffect(() => {
    if (open) void load();
    return stopPow;
  }, [open, load]);

  const width = challenge?.width ?? 300;
  const scale = wrapWidth > 0 ? Math.min(1, wrapWidth / width) : 1;
  const maxX = challenge ? challenge.width - challenge.pieceSize : 0;

  function onPointerDown(e: ReactPointerEvent<HTMLDivElement>) {
    if (phase !== 'ready' || !challenge) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { pointerId: e.pointerId, startClientX: e.clientX, startTime: performance.now(), track: [[0, 0]] };
  }

  function onPointerMove(e: ReactPointerEvent<HTMLDivElement>) {
    const d = drag.current;
    if (!d || e.pointerId !== d.pointerId) return;
    const next = Math.min(maxX, Math.max(0, (e.clientX - d.startClientX) / scale));
    d.track.push([Math.round(performance.now() - d.startTime), round2(next)]);
    moveTo(next);
  }

  async function onPointerUp(e: ReactPointerEvent<HTMLDivElement>) {
    const d = drag.current;
    if (!d || e.pointerId !== d.pointerId || !challenge) return;
    drag.current = null;
    const finalX = round2(xRef.current);
    d.track.push([Math.round(performance.now() - d.startTime), finalX]);
    if (finalX < 1) {
      moveTo(0); // a click without a drag
      return;
    }
    setPhase('checking');
    const nonce = await pow.current?.promise.catch(() => null);
    if (!nonce) return; // the dialog closed or a new challenge is loading
    const r = await checkCaptcha(challenge.id, finalX, d.track, nonce);
    if (r.ok && r.data?.NECaptchaValidate) {
      setPhase('passed');
      const token = r.data.NECaptchaValidate;
      setTimeout(() => onPass(token), 300);
    } else {
      // '1007' (or a network error): show the message and load a fresh challenge.
      if (!r.networkError) toast.error(r.message || t('captcha.loadFailed'));
      await load();
    }
  }

  function onPointerCancel() {
    if (!drag.current) return;
    drag.current = null;
    moveTo(0);
  }

  const s = (n: number) => n * scale;

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[210] bg-black/40" />
        <Dialog.Content
          data-testid="captcha-dialog"
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 z-[211] w-[min(360px,calc(100vw-1.5rem))] -translate-x-1/2 -translate-y-1/2 rounded-card bg-surface p-5 shadow-pop"
        >
          <div className="mb-3 flex items-center justify-between">
            <Dialog.Title className="text-base font-medium text-ink">{t('captcha.title')}</Dialog.Title>
            <div className="flex items-center gap-1">
              <button
                type="button"
                onClick={() => void load()}
                disabled={phase === 'loading' || phase === 'checking'}
                className="rounded px-2 py-1 text-sm text-brand hover:bg-brand-soft disabled:opacity-50"
                data-testid="captcha-refresh"
              >
                ↻ {t('captcha.refresh')}
              </button>
              <Dialog.Close className="rounded px-2 py-1 text-lg leading-none text-ink-faint hover:text-ink" aria-label={t('common.close')} data-testid="captcha-close">
                ×
              </Dialog.Close>
            </div>
          </div>

          <div ref={wrapRef} className="w-full">
            <div
              data-testid="captcha-bg"
              className="relative mx-auto overflow-hidden rounded-md bg-canvas"
              style={{ width: s(width), height: s(challenge?.height ?? 150) }}
            >
              {challenge ? (
                <>
                  <img src={challenge.bg} alt="" width={s(challenge.width)} height={s(challenge.height)} draggable={false} className="block select-none" />
                  <img
                    src={challenge.piece}
                    alt=""
                    draggable={false}
                    data-testid="captcha-piece"
                    className="absolute select-none drop-shadow"
                    style={{ top: 0, left: s(x), width: s(challenge.pieceSize), height: s(challenge.height) }}
                  />
                </>
              ) : (
                <div className="flex h-full items-center justify-center gap-2 px-4 text-center text-sm text-ink-faint">
                  {phase === 'error' ? t('captcha.loadFailed') : (
                    <>
                      <Spinner /> {t('captcha.loading')}
                    </>
                  )}
                </div>
              )}
              {phase === 'checking' && (
                <div className="absolute inset-0 flex items-center justify-center gap-2 bg-black/30 text-sm text-white">
                  <Spinner /> {t('captcha.checking')}
                </div>
              )}
              {phase === 'passed' && (
                <div className="absolute inset-x-0 bottom-0 bg-success/90 py-1 text-center text-sm text-white" data-testid="captcha-passed">
                  {t('captcha.passed')}
                </div>
              )}
            </div>

            <div
              data-testid="captcha-track"
              className="relative mx-auto mt-3 h-10 select-none rounded-full border border-line bg-canvas"
              style={{ width: s(width) }}
            >
              <div
                className="absolute inset-y-0 left-0 rounded-full bg-brand-soft"
                style={{ width: challenge ? s(x + challenge.pieceSize) : 0 }}
              />
              <span className="pointer-events-none absolute inset-0 flex items-center justify-center pl-8 text-xs text-ink-faint">
                {t('captcha.hint')}
              </span>
              <div
                data-testid="captcha-handle"
                role="slider"
                aria-label={t('captcha.handle')}
                aria-valuemin={0}
                aria-valuemax={maxX}
                aria-valuenow={Math.round(x)}
                tabIndex={0}
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={(e) => void onPointerUp(e)}
                onPointerCancel={onPointerCancel}
                className={`absolute top-0 flex h-full touch-none items-center justify-center rounded-full text-white shadow ${
                  phase === 'ready' ? 'cursor-grab bg-brand active:cursor-grabbing' : 'bg-ink-faint'
                }`}
                style={{ left: s(x), width: s(challenge?.pieceSize ?? 44) }}
              >
                <svg viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
                  <path d="M3 8h10M9 4l4 4-4 4" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              </div>
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
