import { useState } from 'react';
import { LIMITS } from '@cfx/contract/limits.ts';
import { useTranslation } from '../../../i18n/index.ts';
import type { ApiResult } from '../../../lib/api.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
// The overlay's slider captcha and labelled input, reused as they are.
import { CaptchaDialog } from '../../auth/components/captcha-dialog.tsx';
import { Field } from '../../auth/components/fields.tsx';
import { useCodeCountdown, useCodeCountdowns, type CodeCountdownKey } from '../hooks/code-countdown.ts';

/**
 * A 6-digit code input with its "get code" button: `check` may refuse first (e.g. a malformed new
 * phone, shown as a warning), then the slider captcha, then `send(token)`. Success starts the
 * 60-second countdown of `countdown`; a failure shows the server's message (the api client does)
 * and no countdown.
 */
export function CodeField({
  code,
  onCode,
  send,
  check,
  countdown,
  testIdPrefix,
}: {
  code: string;
  onCode: (code: string) => void;
  send: (captchaToken: string) => Promise<ApiResult<unknown>>;
  check?: () => string | null;
  countdown: CodeCountdownKey;
  /** `<prefix>-code` for the input, `<prefix>-get-code` for the button. */
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const remaining = useCodeCountdown(countdown);
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
    const r = await send(token);
    setSending(false);
    if (r.ok) {
      toast.success(r.message || t('auth.smsSent'));
      start(countdown, LIMITS.smsCountdownSeconds);
    }
  }

  return (
    <>
      <Field
        label={t('security.code')}
        testId={`${testIdPrefix}-code`}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={LIMITS.smsCodeLength}
        placeholder={t('security.codePlaceholder')}
        value={code}
        onChange={(e) => onCode(e.target.value.replace(/\D/g, '').slice(0, LIMITS.smsCodeLength))}
        trailing={
          <button
            type="button"
            onClick={open}
            disabled={remaining > 0 || sending}
            data-testid={`${testIdPrefix}-get-code`}
            data-countdown={remaining}
            className="tabular h-11 w-32 shrink-0 rounded-control border border-brand px-2 text-sm text-brand transition-colors hover:bg-brand-soft disabled:border-line disabled:text-ink-faint disabled:hover:bg-transparent"
          >
            {sending ? <Spinner /> : remaining > 0 ? t('security.countdown', { s: remaining }) : t('security.getCode')}
          </button>
        }
      />
      <CaptchaDialog open={captchaOpen} onOpenChange={setCaptchaOpen} onPass={(token) => void onPass(token)} />
    </>
  );
}
