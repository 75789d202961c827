import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { LIMITS } from '@cfx/contract/limits.ts';
import { phoneInput } from '../../../lib/text.ts';

/** A labelled input (label visible to screen readers; the placeholder shows the hint). */
export function Field({
  label,
  testId,
  trailing,
  ...input
}: { label: string; testId: string; trailing?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="flex gap-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} className="field-input" data-testid={testId} {...input} />
      {trailing}
    </div>
  );
}

/** Phone input: digits only, truncated to 11. */
export function PhoneField({
  label,
  placeholder,
  value,
  onValue,
  testId,
  trailing,
}: {
  label: string;
  placeholder: string;
  value: string;
  onValue: (v: string) => void;
  testId: string;
  trailing?: ReactNode;
}) {
  return (
    <Field
      label={label}
      testId={testId}
      type="tel"
      inputMode="numeric"
      autoComplete="tel"
      maxLength={LIMITS.mobileLength}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onValue(phoneInput(e.target.value, LIMITS.mobileLength))}
      trailing={trailing}
    />
  );
}

export function Checkbox({ checked, onChange, testId, children }: { checked: boolean; onChange: (v: boolean) => void; testId: string; children: ReactNode }) {
  return (
    <label className="flex cursor-pointer items-start gap-2 text-xs leading-5 text-ink-soft">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
        className="mt-0.5 size-4 shrink-0 accent-brand"
      />
      <span>{children}</span>
    </label>
  );
}
