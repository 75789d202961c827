import { useState } from 'react';
import { LIMITS } from '@cfx/contract/limits.ts';
import { useTranslation } from '../../i18n/index.ts';
import type { ApiResult } from '../../lib/api.ts';
import { toast } from '../../stores/toast.ts';
import { CaptchaDialog } from '../captcha/captcha-dialog.tsx';
import { useSecondsLeft } from '../countdown/use-clock.ts';
import { Field } from '../ui/fields.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { useCodeCountdowns, type CodeCountdownKey } from './code-countdowns.ts';

export interface SmsCodeButtonProps {
  /** Sends the code with a fresh slider-captcha token. */
  send: (captchaToken: string) => Promise<ApiResult<unknown>>;
  /** May refuse before the captcha: a warning text (e.g. a malformed phone), or null to go on. */
  check?: () => string | null;
  /** Whose countdown (code-countdowns.ts): it survives a remount and is shared by the buttons of one phone. */
  countdownKey: CodeCountdownKey;
  testId: string;
}

/**
 * "获取验证码" with its 60-second countdown, the one of the whole app: `check` may refuse first
 * (a warning), then the slider captcha, then `send(token)`. Success shows the server's message
 * (else 发送成功) and starts the countdown; a failure shows the server's message (the api client
 * does) and no countdown. `data-countdown` carries the seconds left.
 */
export function SmsCodeButton({ send, check, countdownKey, testId }: SmsCodeButtonProps) {
  const { t } = useTranslation();
  const remaining = useSecondsLeft(useCodeCountdowns((s) => s.ends[countdownKey] ?? 0));
  const start = useCodeCountdowns((s) => s.start);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [sending, setSending] = useState(false);

  function open() {
    const problem = check?.();
    if (problem) return void toast.warning(problem);
    setCaptchaOpen(true);
  }

  async function onPass(token: string) {
    setCaptchaOpen(false);
    setSending(true);
    try {
      const r = await send(token);
      if (r.ok) {
        toast.success(r.message || t('auth.smsSent'));
        start(countdownKey, LIMITS.smsCountdownSeconds);
      }
    } finally {
      setSending(false);
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={open}
        disabled={remaining > 0 || sending}
        data-testid={testId}
        data-countdown={remaining}
        className="tabular h-11 w-32 shrink-0 rounded-control border border-brand px-2 text-sm text-brand transition-colors hover:bg-brand-soft disabled:border-line disabled:text-ink-faint disabled:hover:bg-transparent"
      >
        {sending ? <Spinner /> : remaining > 0 ? t('auth.countdown', { s: remaining }) : t('auth.getCode')}
      </button>
      <CaptchaDialog open={captchaOpen} onOpenChange={setCaptchaOpen} onPass={(token) => void onPass(token)} />
    </>
  );
}

/** The 6-digit code input (digits only) with its get-code button: `<prefix>-code` and `<prefix>-get-code`. */
export function SmsCodeField({ code, onCode, testIdPrefix, ...button }: Omit<SmsCodeButtonProps, 'testId'> & { code: string; onCode: (code: string) => void; testIdPrefix: string }) {
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
      onChange={(e) => onCode(e.target.value.replace(/\D/g, '').slice(0, LIMITS.smsCodeLength))}
      trailing={<SmsCodeButton {...button} testId={`${testIdPrefix}-get-code`} />}
    />
  );
}
