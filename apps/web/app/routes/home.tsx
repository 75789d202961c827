import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Seo } from '../components/ui/seo.tsx';

/** Home (/): the dark hero under the transparent header; the modules arrive with later issues. */
export default function Home() {
  const { t } = useTranslation();
  return (
    <>
      <Seo title={t('pages.home.title')} description={t('pages.home.description')} />
      <section className="relative overflow-hidden bg-night text-white" data-testid="home-hero">
        <div
          aria-hidden
          className="absolute inset-0 opacity-80"
          style={{
            background:
              'radial-gradient(60% 80% at 20% 10%, rgb(91 76 240 / 0.55), transparent 60%), radial-gradient(50% 70% at 85% 30%, rgb(245 185 66 / 0.25), transparent 60%)',
          }}
        />
        <div className="page-width relative flex min-h-[520px] flex-col justify-center pb-20 pt-[calc(var(--spacing-header)+4rem)]">
          <p className="text-sm tracking-[0.2em] text-white/60">{t('app.tagline')}</p>
          <h1 className="mt-4 max-w-2xl text-4xl font-bold leading-tight md:text-5xl">{t('home.heroTitle')}</h1>
          <p className="mt-5 max-w-xl text-base text-white/75">{t('home.heroSubtitle')}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/projects" className="btn-primary h-11 px-6" prefetch="intent">
              {t('home.browseReleases')}
            </Link>
            <Link to="/sales" className="btn h-11 border border-white/30 px-6 text-white hover:bg-white/10" prefetch="intent">
              {t('home.browseMarket')}
            </Link>
          </div>
        </div>
      </section>
      <section className="page-width py-12">
        <div className="card flex flex-col items-center px-6 py-14 text-center" data-testid="coming-soon">
          <p className="text-base font-medium text-brand">{t('common.comingSoon')}</p>
          <p className="mt-2 text-ink-soft">{t('home.modulesSoon')}</p>
        </div>
      </section>
    </>
  );
}
