import { useLocation } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import { Seo } from './seo.tsx';
import { previewImageUrl } from './thumb-url.ts';

/**
 * Per-page <title> and meta description (seo.tsx) plus Open Graph / Twitter tags (React 19 hoists
 * them into <head>, also during SSR). `origin` (from the loader) makes og:url and og:image absolute; generated artwork is given as PNG.
 */
export function PageMeta({
  title,
  description,
  image,
  origin = '',
  type = 'website',
}: {
  title: string;
  description: string;
  image?: string;
  origin?: string;
  type?: 'website' | 'article';
}) {
  const { t, lang } = useTranslation();
  const { pathname, search } = useLocation();
  const name = t('app.name');
  const preview = image ? previewImageUrl(image) : '';
  return (
    <>
      <Seo title={title} description={description} />
      <meta property="og:site_name" content={name} />
      <meta property="og:type" content={type} />
      <meta property="og:title" content={title || name} />
      <meta property="og:description" content={description} />
      {origin && <meta property="og:url" content={origin + pathname + search} />}
      <meta property="og:locale" content={lang === 'en' ? 'en_US' : 'zh_CN'} />
      {preview && <meta property="og:image" content={origin && preview.startsWith('/') ? origin + preview : preview} />}
      <meta name="twitter:card" content={preview ? 'summary_large_image' : 'summary'} />
    </>
  );
}
