import { useTranslation } from '../../i18n/index.ts';

/** Per-page <title> and meta description (React 19 hoists them into <head>, also during SSR). */
export function Seo({ title, description }: { title: string; description?: string }) {
  const { t } = useTranslation();
  const full = title ? `${title} - ${t('app.name')}` : `${t('app.name')} - ${t('app.tagline')}`;
  return (
    <>
      <title>{full}</title>
      <meta name="description" content={description ?? t('app.defaultDescription')} />
    </>
  );
}
