import { useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import { useAuthOverlay, type CountdownKey } from '../../../stores/auth-overlay.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { sendSmsCode, type SmsType } from '../api/send-sms-code.ts';
import { useCountdown } from '../hooks/use-countdown.ts';
import { validateMobileForSms } from '../validate.ts';
import { CaptchaDialog } from './captcha-dialog.tsx';
import { Field } from './fields.tsx';

/**
 * "Get code": checks the phone, asks for the slider captcha, then sends the SMS. A success starts
 * this view's own 60 s countdown; a failure (e.g. status 1001) shows the server message and no
 * countdown (the api client shows it).
 */
export function SmsCodeButton({ mobile, type, countdownKey, testId }: { mobile: string; type: SmsType; countdownKey: CountdownKey; testId: string }) {
  const { t } = useTranslation();
  const remaining = useCountdown(countdownKey);
  const startCountdown = useAuthOverlay((s) => s.startCountdown);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [sending, setSending] = useState(false);

  function start() {
    const problem = validateMobileForSms(mobile);
    if (problem) return void toast.warning(t(`auth.validation.${problem}`));
    setCaptchaOpen(true);
  }

  async function send(captchaToken: string) {
    setCaptchaOpen(false);
    setSending(true);
    const r = await sendSmsCode(mobile, type, captchaToken);
    setSending(false);
    if (r.ok) {
      toast.success(r.message || t('auth.smsSent'));
      startCountdown(countdownKey, LIMITS.smsCountdownSeconds);
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={start}
        disabled={remaining > 0 || sending}
        data-testid={testId}
        data-countdown={remaining}
        className="tabular h-11 w-32 shrink-0 rounded-control border border-brand px-2 text-sm text-brand transition-colors hover:bg-brand-soft disabled:border-line disabled:text-ink-faint disabled:hover:bg-transparent"
      >
        {sending ? <Spinner /> : remaining > 0 ? t('auth.countdown', { s: remaining }) : t('auth.getCode')}
      </button>
      <CaptchaDialog open={captchaOpen} onOpenChange={setCaptchaOpen} onPass={(token) => void send(token)} />
    </>
  );
}

/** The 6-digit code input with its get-code button, as the login, register and forgot views use it. */
export function SmsCodeField({
  mobile,
  code,
  onCode,
  type,
  countdownKey,
  testIdPrefix,
}: {
  mobile: string;
  code: string;
  onCode: (code: string) => void;
  type: SmsType;
  countdownKey: CountdownKey;
  /** `<prefix>-code` for the input, `<prefix>-get-code` for the button. */
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('auth.code')}
      testId={`${testIdPrefix}-code`}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={LIMITS.smsCodeLength}
      placeholder={t('auth.codePlaceholder')}
      value={code}
      onChange={(e) => onCode(e.target.value.slice(0, LIMITS.smsCodeLength))}
      trailing={<SmsCodeButton mobile={mobile} type={type} countdownKey={countdownKey} testId={`${testIdPrefix}-get-code`} />}
    />
  );
}
