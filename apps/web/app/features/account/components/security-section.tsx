import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { LoadingBlock } from '../../../components/ui/spinner.tsx';
import { getSecuritySetting } from '../api/get-security-setting.ts';
import { ChangeMobileDialog } from './change-mobile-dialog.tsx';
import { ChangePasswordDialog } from './change-password-dialog.tsx';

function Row({ label, value, testId, action }: { label: string; value: string; testId: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 border-b border-line py-3 last:border-0 sm:flex-row sm:items-center">
      <dt className="w-40 shrink-0 text-sm text-ink-soft">{label}</dt>
      <dd className="min-w-0 flex-1 break-all text-sm text-ink" data-testid={testId}>
        {value}
      </dd>
      {action && <dd className="shrink-0">{action}</dd>}
    </div>
  );
}

const actionClass = 'rounded-control border border-line px-3 py-1 text-sm text-ink-soft transition-colors hover:border-brand hover:text-brand';

/** Security overview (security/setting) with the change-phone and change-password dialogs. */
export function SecuritySection() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const fullMobile = useUserStore((s) => s.mobile);
  const q = useQuery({ queryKey: ['security-setting', token], queryFn: getSecuritySetting, enabled: token !== '' });
  const [dialog, setDialog] = useState<'password' | 'mobile' | null>(null);
  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <p className="flex items-center gap-3 py-4 text-sm text-ink-faint" data-testid="security-section" data-status="error">
        {t('common.loadFailed')}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  const s = q.data;
  return (
    <>
      <dl data-testid="security-section">
        <Row
          label={t('settings.mobile')}
          value={s.mobile}
          testId="security-mobile"
          action={
            <button type="button" className={actionClass} onClick={() => setDialog('mobile')} data-testid="security-change-mobile">
              {t('security.change')}
            </button>
          }
        />
        <Row
          label={t('settings.password')}
          value={s.hasPassword ? t('settings.passwordSet') : t('settings.passwordUnset')}
          testId="security-password"
          action={
            <button type="button" className={actionClass} onClick={() => setDialog('password')} data-testid="security-change-password">
              {s.hasPassword ? t('security.change') : t('security.setPassword')}
            </button>
          }
        />
        <Row label={t('settings.realname')} value={s.isRealname === '1' ? t('settings.realnameDone') : t('settings.realnameNone')} testId="security-realname" />
        <Row label={t('settings.wallet')} value={s.walletAddress || t('settings.walletNone')} testId="security-wallet" />
      </dl>
      <ChangePasswordDialog open={dialog === 'password'} onOpenChange={(o) => setDialog(o ? 'password' : null)} hasPassword={s.hasPassword} maskedMobile={s.mobile} />
      <ChangeMobileDialog open={dialog === 'mobile'} onOpenChange={(o) => setDialog(o ? 'mobile' : null)} maskedMobile={s.mobile} currentMobile={fullMobile} />
    </>
  );
}
