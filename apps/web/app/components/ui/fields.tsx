import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { LIMITS } from '@cfx/contract/limits.ts';
import { phoneInput } from '../../lib/text.ts';

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

/**
 * A password input with a show/hide toggle, the one of the app. Input longer than `maxLength` is cut
 * (the user side's 20, LIMITS.passwordMax; the console passes its staff maximum, or null at sign-in). By default the
 * label is for screen readers only and the placeholder shows the hint (the login overlay, account
 * dialogs); `visibleLabel` shows it above the input with `hint` below (the console's sign-in). The
 * toggle is a pressed/unpressed button named by the field's label, so the value never leaves the
 * input in any other form.
 */
export function PasswordField({
  label,
  testId,
  value,
  onValue,
  autoComplete,
  placeholder,
  maxLength = LIMITS.passwordMax,
  visibleLabel = false,
  hint,
  className = '',
}: {
  label: string;
  testId: string;
  value: string;
  onValue: (v: string) => void;
  autoComplete: 'current-password' | 'new-password';
  placeholder?: string;
  /** null: no limit (the console's sign-in takes whatever password was issued). */
  maxLength?: number | null;
  visibleLabel?: boolean;
  hint?: ReactNode;
  className?: string;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const input = (
    <div className="relative min-w-0 flex-1">
      <input
        id={id}
        className="field-input pr-11"
        type={shown ? 'text' : 'password'}
        autoComplete={autoComplete}
        maxLength={maxLength ?? undefined}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onValue(maxLength === null ? e.target.value : e.target.value.slice(0, maxLength))}
        data-testid={testId}
      />
      <button
        type="button"
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center text-ink-faint transition-colors hover:text-brand"
        aria-label={label}
        aria-controls={id}
        aria-pressed={shown}
        onClick={() => setShown((v) => !v)}
        data-testid={`${testId}-toggle`}
      >
        <EyeIcon crossed={!shown} />
      </button>
    </div>
  );
  if (visibleLabel) {
    return (
      <div className={`block text-sm ${className}`}>
        <label htmlFor={id} className="mb-1 block text-ink-soft">
          {label}
        </label>
        {input}
        {hint && <span className="mt-1 block text-xs text-ink-faint">{hint}</span>}
      </div>
    );
  }
  return (
    <div className={`flex gap-2 ${className}`}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      {input}
    </div>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M4 4l16 16" />}
    </svg>
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
