import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { getPrivacySetting } from '../api/get-privacy-setting.ts';
import { getSecuritySetting } from '../api/get-security-setting.ts';

function Row({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1 border-b border-line py-3 last:border-0 sm:flex-row sm:items-center">
      <dt className="w-40 shrink-0 text-sm text-ink-soft">{label}</dt>
      <dd className="min-w-0 break-all text-sm text-ink" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Read-only security overview (security/setting). */
export function SecuritySection() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['security-setting', token], queryFn: getSecuritySetting, enabled: token !== '' });
  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) return <p className="py-4 text-sm text-ink-faint">{t('common.loadFailed')}</p>;
  const s = q.data;
  return (
    <dl data-testid="security-section">
      <Row label={t('settings.mobile')} value={s.mobile} testId="security-mobile" />
      <Row label={t('settings.password')} value={s.hasPassword ? t('settings.passwordSet') : t('settings.passwordUnset')} testId="security-password" />
      <Row label={t('settings.realname')} value={s.isRealname === '1' ? t('settings.realnameDone') : t('settings.realnameNone')} testId="security-realname" />
      <Row label={t('settings.wallet')} value={s.walletAddress || t('settings.walletNone')} testId="security-wallet" />
    </dl>
  );
}

/** Read-only privacy settings (privacy/other/getsetting). */
export function PrivacySection() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['privacy-setting', token], queryFn: getPrivacySetting, enabled: token !== '' });
  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) return <p className="py-4 text-sm text-ink-faint">{t('common.loadFailed')}</p>;
  const onOff = (v: boolean) => (v ? t('settings.on') : t('settings.off'));
  return (
    <dl data-testid="privacy-section">
      <Row label={t('settings.showCollection')} value={onOff(q.data.showCollection)} testId="privacy-show-collection" />
      <Row label={t('settings.personalizedRecommend')} value={onOff(q.data.personalizedRecommend)} testId="privacy-recommend" />
    </dl>
  );
}
