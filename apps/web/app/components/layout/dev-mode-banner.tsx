import { useTranslation } from '../../i18n/index.ts';

/**
 * Shown on every page while the server runs with DEV_MODE=1 (sandbox SMS, captcha, payment and
 * KYC, demo data). Fixed to the bottom edge and click-through, so it never covers a control.
 */
export function DevModeBanner() {
  const { t } = useTranslation();
  return (
    <div
      role="note"
      data-testid="dev-mode-banner"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[1200] bg-amber-400/95 px-3 py-1 text-center text-xs font-medium text-black"
    >
      {t('devMode.banner')}
    </div>
  );
}
