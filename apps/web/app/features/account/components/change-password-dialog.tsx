import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { PasswordField } from '../../../components/ui/fields.tsx';
import { changePassword } from '../api/change-password.ts';
import { sendSecurityCode } from '../../../lib/send-security-code.ts';
import { validateChangePassword } from '../validate.ts';
import { SmsCodeField } from '../../../components/sms-code/sms-code-button.tsx';
import { DialogShell } from '../../../components/ui/dialog-shell.tsx';

/**
 * Change (or, for an SMS-only account, set) the login password: the old password, or a security
 * code to the own phone; the new password twice (6-20 digits, letters and symbols). On success
 * the server signs out every other device; this one stays signed in.
 */
export function ChangePasswordDialog({
  open,
  onOpenChange,
  hasPassword,
  maskedMobile,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  hasPassword: boolean;
  maskedMobile: string;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const save = useMutation({
    mutationFn: changePassword,
    onSuccess: async (r) => {
      if (!r.ok) return;
      toast.success(r.message || t('settings.saved'));
      reset();
      onOpenChange(false);
      await Promise.all(['security-setting', 'sessions', 'security-events'].map((k) => client.invalidateQueries({ queryKey: [k] })));
    },
  });
  const busy = save.isPending;

  const reset = () => {
    setOldPassword('');
    setPassword('');
    setConfirm('');
    setCode('');
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const problem = validateChangePassword({ hasPassword, oldPassword, password, confirm, code });
    if (problem) return void toast.warning(t(`security.validation.${problem}`));
    save.mutate(hasPassword ? { oldPassword, password } : { password, smsCode: code });
  }

  const pw = (value: string, set: (v: string) => void, testId: string, label: string, placeholder: string, autoComplete: 'current-password' | 'new-password') => (
    <PasswordField
      label={label}
      testId={testId}
      autoComplete={autoComplete}
      placeholder={placeholder}
      value={value}
      onValue={set}
    />
  );

  return (
    <DialogShell
      open={open}
      onOpenChange={(o) => {
        if (!o) reset();
        onOpenChange(o);
      }}
      title={hasPassword ? t('security.changePassword') : t('security.setPassword')}
      testId="change-password-dialog"
      busy={busy}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {hasPassword ? (
          pw(oldPassword, setOldPassword, 'change-password-old', t('security.oldPassword'), t('security.oldPasswordPlaceholder'), 'current-password')
        ) : (
          <>
            <p className="text-sm text-ink-soft">{t('security.smsOnlyHint', { mobile: maskedMobile })}</p>
            <SmsCodeField code={code} onCode={setCode} send={sendSecurityCode} countdownKey="security" testIdPrefix="change-password" />
          </>
        )}
        {pw(password, setPassword, 'change-password-new', t('security.newPassword'), t('security.newPasswordPlaceholder'), 'new-password')}
        {pw(confirm, setConfirm, 'change-password-confirm', t('security.confirmPassword'), t('security.confirmPlaceholder'), 'new-password')}
        <p className="text-xs text-ink-faint">{t('security.othersSignedOut')}</p>
        <button type="submit" className="btn-primary h-11 w-full text-base" disabled={busy} data-testid="change-password-submit">
          {busy && <Spinner />}
          {busy ? t('security.submitting') : t('security.submit')}
        </button>
      </form>
    </DialogShell>
  );
}
