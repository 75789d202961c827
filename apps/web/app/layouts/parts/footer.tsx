import { Link } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import { HELP_PAGES, SITE, type HelpGroup } from '../../config.ts';
import { Logo } from './logo.tsx';

const GROUPS: HelpGroup[] = ['part1', 'part2', 'part3', 'part4', 'part5'];

/** Footer: help links, contact mailbox, company copyright and filing numbers. */
export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="mt-auto bg-night text-white/70" data-testid="site-footer">
      <div className="page-width grid gap-10 py-12 md:grid-cols-[1.2fr_3fr_1.3fr]">
        <div>
          <div className="flex items-center gap-2 text-white">
            <Logo />
            <span className="text-lg font-semibold">{t('app.name')}</span>
          </div>
          <p className="mt-3 text-sm">{t('app.tagline')}</p>
          <p className="mt-4 text-xs leading-6 text-white/50">{t('footer.riskNotice')}</p>
        </div>

        <nav aria-label={t('footer.helpCenter')} className="grid grid-cols-2 gap-6 sm:grid-cols-5">
          {GROUPS.map((group) => (
            <div key={group}>
              <h2 className="mb-3 text-sm font-medium text-white">{t(`help.groups.${group}`)}</h2>
              <ul className="space-y-2 text-sm">
                {HELP_PAGES.filter((p) => p.group === group).map((p) => (
                  <li key={p.slug}>
                    <Link to={`/help/${p.slug}`} className="hover:text-white" data-testid={`footer-help-${p.slug}`}>
                      {t(`help.pages.${p.slug}`)}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>

        <div>
          <h2 className="mb-3 text-sm font-medium text-white">{t('footer.contact')}</h2>
          <p className="text-sm">
            {t('footer.email')}：
            <a href={`mailto:${SITE.serviceEmail}`} className="text-white hover:underline" data-testid="footer-email">
              {SITE.serviceEmail}
            </a>
          </p>
          <p className="mt-2 text-sm">
            {t('footer.hours')}：{t('service.hoursValue')}
          </p>
        </div>
      </div>
      <div className="border-t border-night-line">
        <div className="page-width flex flex-col gap-2 py-5 text-xs text-white/50 md:flex-row md:items-center md:justify-between">
          <p>{t('footer.copyright', { from: SITE.sinceYear, to: year, company: t('footer.company') })}</p>
          <p className="flex flex-wrap gap-x-4 gap-y-1">
            <a href={SITE.icpUrl} target="_blank" rel="noopener noreferrer" className="hover:text-white" data-testid="footer-icp">
              {SITE.icpNumber}
            </a>
            <a href={SITE.policeUrl} target="_blank" rel="noopener noreferrer" className="hover:text-white" data-testid="footer-police">
              {SITE.policeNumber}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
