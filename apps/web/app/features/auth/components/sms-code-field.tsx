import { useTranslation } from '../../../i18n/index.ts';
import { SmsCodeField as CodeField } from '../../../components/sms-code/sms-code-button.tsx';
import type { CodeCountdownKey } from '../../../components/sms-code/code-countdowns.ts';
import { sendSmsCode, type SmsType } from '../api/send-sms-code.ts';
import { validateMobileForSms } from '../validate.ts';

/**
 * The code input of the login, register and forgot views: the shared get-code field
 * (components/sms-code) that first checks the phone, then sends an SMS of `type` to it.
 */
export function SmsCodeField({
  mobile,
  type,
  countdownKey,
  ...field
}: {
  mobile: string;
  code: string;
  onCode: (code: string) => void;
  type: SmsType;
  countdownKey: Extract<CodeCountdownKey, 'smsLogin' | 'register' | 'forgot'>;
  /** `<prefix>-code` for the input, `<prefix>-get-code` for the button. */
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const check = () => {
    const problem = validateMobileForSms(mobile);
    return problem ? t(`auth.validation.${problem}`) : null;
  };
  return <CodeField {...field} countdownKey={countdownKey} check={check} send={(token) => sendSmsCode(mobile, type, token)} />;
}
