import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/download';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { QrCode } from '../components/ui/qr-code.tsx';
import { InstallButton } from '../features/pwa/components/install-button.tsx';

/**
 * App download (/download): the web app installs for real (manifest + service worker, see
 * features/pwa) — with the browser's install prompt where it offers one, else this platform's
 * steps — and a QR code, generated locally (inline SVG, server-rendered), that opens this page on a
 * phone to install it there.
 */
export function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  return { origin, target: `${origin}/download` };
}

export default function Download({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const features = ['feature1', 'feature2', 'feature3'] as const;
  return (
    <div data-testid="download-page">
      <PageMeta title={t('pages.download.title')} description={t('pages.download.description')} origin={d.origin} />
      <section className="bg-night text-white">
        <div className="page-width grid items-center gap-10 py-14 md:grid-cols-[minmax(0,1fr)_auto] md:py-20">
          <div>
            <p className="text-sm tracking-[0.2em] text-white/60">{t('app.tagline')}</p>
            <h1 className="mt-3 text-3xl font-bold md:text-4xl">{t('download.title')}</h1>
            <p className="mt-4 max-w-xl text-white/75">{t('download.subtitle')}</p>
            <div className="mt-8" data-testid="pwa-install-block">
              <h2 className="text-lg font-semibold">{t('download.pwaTitle')}</h2>
              <p className="mb-4 mt-1 max-w-xl text-sm text-white/70">{t('download.pwaText')}</p>
              <InstallButton />
              <p className="mt-4 flex items-center gap-2 text-xs text-white/60">
                <img src="/icons/icon-192.png" alt="" width={20} height={20} className="rounded" />
                {t('download.offlineReady')}
              </p>
            </div>
          </div>
          <div className="flex flex-col items-center rounded-card bg-white p-5 text-ink shadow-pop">
            <QrCode value={d.target} size={176} label={t('download.qrLabel')} />
            <p className="mt-3 text-sm font-medium">{t('download.scan')}</p>
            <p className="mt-0.5 text-xs text-ink-faint">{t('download.scanHint')}</p>
          </div>
        </div>
      </section>
      <section className="page-width grid gap-4 py-12 md:grid-cols-3">
        {features.map((f) => (
          <div key={f} className="card p-6">
            <h2 className="text-base text-ink">{t(`download.${f}.title`)}</h2>
            <p className="mt-2 text-sm text-ink-soft">{t(`download.${f}.text`)}</p>
          </div>
        ))}
      </section>
    </div>
  );
}
