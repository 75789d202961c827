import { useTranslation } from '../../../i18n/index.ts';

/** The visible 开发钱包 / "dev wallet" label wherever the built-in dev wallet appears. */
export function DevWalletBadge() {
  const { t } = useTranslation();
  return (
    <span
      data-testid="dev-wallet-badge"
      className="inline-flex items-center rounded-full border border-warning/40 bg-warning/10 px-2 py-0.5 text-[11px] font-medium leading-4 text-amber-800"
    >
      {t('wallet.devBadge')}
    </span>
  );
}
