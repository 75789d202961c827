import { useTranslation } from '../../../i18n/index.ts';
import type { MintInfo } from '../api/types.ts';

/** The caller's whitelist standing for a release with whitelist / claim phases (from mintinfo). */
export function WhitelistStatusLine({ info }: { info: MintInfo }) {
  const { t } = useTranslation();
  const quota = info.my.whitelistQuota;
  const used = info.my.whitelistUsed;
  const remaining = Math.max(0, quota - used);
  return (
    <p
      className={`rounded-control px-3 py-2 text-sm ${info.my.whitelisted ? 'bg-success/10 text-success' : 'bg-canvas text-ink-soft'}`}
      data-testid="whitelist-status"
      data-whitelisted={info.my.whitelisted ? '1' : '0'}
      data-quota={quota}
      data-used={used}
    >
      {info.my.whitelisted ? t('phases.whitelist.yes', { quota, used, remaining }) : t('phases.whitelist.no')}
      {info.my.whitelisted && !info.my.verified ? ` ${t('phases.whitelist.unverified')}` : ''}
    </p>
  );
}
