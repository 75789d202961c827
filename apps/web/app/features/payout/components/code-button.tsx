import { useEffect, useState } from 'react';
import { LIMITS } from '@cfx/contract/limits.ts';
import { useTranslation } from '../../../i18n/index.ts';
import type { ApiResult } from '../../../lib/api.ts';
import { toast } from '../../../stores/toast.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
// The overlay's slider captcha, reused as it is.
import { CaptchaDialog } from '../../auth/components/captcha-dialog.tsx';

/**
 * "获取验证码" with its 60-second countdown: `check` may refuse first (a warning), then the
 * slider captcha, then `send(token)`. Success starts the countdown; a failure shows the server's message
 * (the api client) and no countdown.
 */
export function CodeButton({ send, check, testId }: { send: (captchaToken: string) => Promise<ApiResult<unknown>>; check?: () => string | null; testId: string }) {
  const { t } = useTranslation();
  const [end, setEnd] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (end <= Date.now()) return;
    const id = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= end) clearInterval(id);
    }, 1000);
    return () => clearInterval(id);
  }, [end]);
  const left = Math.max(0, Math.ceil((end - now) / 1000));

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
      setNow(Date.now());
      setEnd(Date.now() + LIMITS.smsCountdownSeconds * 1000);
    }
  }
  return (
    <>
      <button
        type="button"
        onClick={open}
        disabled={left > 0 || sending}
        data-testid={testId}
        data-countdown={left}
        className="tabular h-11 w-32 shrink-0 rounded-control border border-brand px-2 text-sm text-brand transition-colors hover:bg-brand-soft disabled:border-line disabled:text-ink-faint disabled:hover:bg-transparent"
      >
        {sending ? <Spinner /> : left > 0 ? t('security.countdown', { s: left }) : t('security.getCode')}
      </button>
      <CaptchaDialog open={captchaOpen} onOpenChange={setCaptchaOpen} onPass={(token) => void onPass(token)} />
    </>
  );
}
