import { Link } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';

/** 首页 / section / current page. */
export function Breadcrumb({ items }: { items: Array<{ label: string; to?: string }> }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('listing.breadcrumb')} className="mb-5 truncate text-sm text-ink-faint">
      <Link to="/" className="hover:text-brand">
        {t('nav.home')}
      </Link>
      {items.map((item) => (
        <span key={item.label}>
          <span className="mx-2" aria-hidden>
            /
          </span>
          {item.to ? (
            <Link to={item.to} className="hover:text-brand">
              {item.label}
            </Link>
          ) : (
            <span className="text-ink-soft" aria-current="page">
              {item.label}
            </span>
          )}
        </span>
      ))}
    </nav>
  );
}
