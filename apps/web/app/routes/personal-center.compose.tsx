import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { ComposeCenter } from '../features/compose/components/compose-center.tsx';

/** Personal center: fragments and compose (docs/drops.md "Compose"). */
export default function ComposePage() {
  const { t } = useTranslation();
  return (
    <div data-testid="pc-compose">
      <Seo title={t('compose.title')} description={t('compose.description')} />
      <h1 className="mb-4 text-xl text-ink">{t('compose.title')}</h1>
      <ComposeCenter />
    </div>
  );
}
