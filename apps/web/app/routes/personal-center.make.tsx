import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { StudioPage } from '../features/studio/components/studio-page.tsx';

/** Personal center: make — the creator studio (features/studio; docs/web.md "Creator studio"). */
export default function Page() {
  const { t } = useTranslation();
  return (
    <section className="card p-5" data-testid="pc-make">
      <Seo title={t('studio.title')} description={t('pages.personalCenter.description')} />
      <h1 className="mb-4 text-lg text-ink">{t('studio.title')}</h1>
      <StudioPage />
    </section>
  );
}
