import { Link, NavLink, useLocation } from 'react-router';
import { HELP_PAGES, SITE, type HelpGroup, type HelpSlug } from '../config.ts';
import { useLang, useTranslation } from '../i18n/index.ts';
import { helpEn } from '../i18n/help.en.ts';
import { helpZh } from '../i18n/help.zh.ts';
import { Seo } from '../components/ui/seo.tsx';

const GROUPS: HelpGroup[] = ['part1', 'part2', 'part3', 'part4', 'part5'];

/** The nine help pages (/help/part1-1 … /help/part5-1); one module, one route id per page. */
export default function HelpPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const { pathname } = useLocation();
  const slug = (HELP_PAGES.find((p) => pathname.replace(/\/+$/, '').endsWith(`/${p.slug}`))?.slug ?? 'part5-1') as HelpSlug;
  const texts = lang === 'en' ? helpEn : helpZh;
  const article = texts.articles[slug];
  const title = t(`help.pages.${slug}`);

  return (
    <div className="page-width py-8" data-testid="help-page" data-slug={slug}>
      <Seo title={`${title} - ${t('help.center')}`} description={article.intro} />
      <nav aria-label="breadcrumb" className="mb-4 text-sm text-ink-faint">
        <Link to="/" className="hover:text-brand">
          {t('nav.home')}
        </Link>
        <span className="mx-2">/</span>
        <span>{t('help.center')}</span>
        <span className="mx-2">/</span>
        <span className="text-ink-soft">{title}</span>
      </nav>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-[240px_minmax(0,1fr)]">
        <aside className="card order-2 h-max p-4 md:order-none">
          <h2 className="mb-2 px-2 text-base text-ink">{t('help.center')}</h2>
          {GROUPS.map((group) => (
            <div key={group} className="mt-3">
              <p className="px-2 text-xs font-medium text-ink-faint">{t(`help.groups.${group}`)}</p>
              <ul className="mt-1">
                {HELP_PAGES.filter((p) => p.group === group).map((p) => (
                  <li key={p.slug}>
                    <NavLink
                      to={`/help/${p.slug}`}
                      data-testid={`help-nav-${p.slug}`}
                      className={({ isActive }) =>
                        `block rounded-md px-2 py-1.5 text-sm ${isActive ? 'bg-brand-soft font-medium text-brand' : 'text-ink-soft hover:bg-canvas hover:text-ink'}`
                      }
                    >
                      {t(`help.pages.${p.slug}`)}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </aside>
        <article className="card min-w-0 px-6 py-8 md:px-10">
          <h1 className="text-2xl text-ink" data-testid="help-title">
            {title}
          </h1>
          <p className="mt-1 text-xs text-ink-faint">{t('help.updated', { date: texts.updated })}</p>
          <div className="prose-cn mt-4">
            <p>{article.intro}</p>
            {article.sections.map((section) => (
              <section key={section.heading}>
                <h2>{section.heading}</h2>
                {section.paragraphs?.map((p, i) => <p key={i}>{p}</p>)}
                {section.items && (
                  <ul>
                    {section.items.map((item, i) => (
                      <li key={i}>{item}</li>
                    ))}
                  </ul>
                )}
              </section>
            ))}
          </div>
          <p className="mt-10 border-t border-line pt-4 text-sm text-ink-faint">{t('help.stillNeedHelp', { email: SITE.serviceEmail })}</p>
        </article>
      </div>
    </div>
  );
}
