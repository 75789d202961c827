import { useTranslation } from '../../../i18n/index.ts';

/**
 * The platform's verified mark (认证) next to a creator's name: given by staff in the console.
 * A check in a badge, with its text for screen readers and as the tooltip.
 */
export function VerifiedMark({ size = 'sm' }: { size?: 'sm' | 'md' }) {
  const { t } = useTranslation();
  const label = t('catalog.verifiedCreator');
  const box = size === 'md' ? 'size-5' : 'size-4';
  return (
    <span className={`inline-flex ${box} shrink-0 items-center justify-center rounded-full bg-brand text-white align-middle`} title={label} data-testid="creator-verified">
      <svg viewBox="0 0 16 16" aria-hidden="true" className="size-3/4" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M3.5 8.5l3 3 6-6.5" />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}
