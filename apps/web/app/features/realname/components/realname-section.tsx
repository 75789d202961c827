import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { fetchProfile } from '../../../lib/session.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { getRealnameInfo } from '../api/get-realname-info.ts';
import { submitRealname } from '../api/submit-realname.ts';
import { MINIMUM_AGE, normaliseIdNumber, validateIdNumber, validateName, type RealnameError } from '../validate.ts';

/**
 * Real-name verification in account settings.
 * Verified: the masked name and ID number and the date. Not verified: a form (name, 18-digit ID
 * number) checked here first (name form, GB 11643 checksum, 18+), then by the server and its KYC
 * provider, whose reason (mismatch, under 18, number already used …) is shown under the form.
 */
export function RealnameSection() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['realname-info', token], queryFn: getRealnameInfo, enabled: token !== '' });

  if (q.isPending) {
    return (
      <div data-testid="realname-section" data-status="loading">
        <LoadingBlock label={t('common.loading')} />
      </div>
    );
  }
  if (q.isError) {
    return (
      <div data-testid="realname-section" data-status="error" className="flex items-center gap-3 py-4 text-sm text-ink-faint">
        {t('realname.loadFailed')}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()} data-testid="realname-retry">
          {t('common.retry')}
        </button>
      </div>
    );
  }
  const info = q.data;
  if (info.isRealname === '1') {
    return (
      <div data-testid="realname-section" data-status="verified">
        <p className="mb-3 inline-flex items-center gap-1.5 rounded-full bg-success/10 px-3 py-1 text-sm text-success" data-testid="realname-verified">
          <span aria-hidden>✓</span> {t('realname.verified')}
        </p>
        <dl className="text-sm">
          <Row label={t('realname.name')} value={info.name} testId="realname-masked-name" />
          <Row label={t('realname.idNumber')} value={info.idNumber} testId="realname-masked-id" />
          {info.verifiedAt ? <Row label={t('realname.verifiedAt')} value={formatCnDateTime(info.verifiedAt)} testId="realname-verified-at" /> : null}
        </dl>
      </div>
    );
  }
  return <RealnameForm />;
}

function Row({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1 border-b border-line py-3 last:border-0 sm:flex-row sm:items-center">
      <dt className="w-40 shrink-0 text-ink-soft">{label}</dt>
      <dd className="tabular min-w-0 break-all text-ink" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function RealnameForm() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [idNumber, setIdNumber] = useState('');
  const [errors, setErrors] = useState<{ name?: RealnameError; id?: RealnameError }>({});
  const [serverError, setServerError] = useState('');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const next = { name: validateName(name) ?? undefined, id: validateIdNumber(idNumber) ?? undefined };
    setErrors(next);
    setServerError('');
    if (next.name || next.id) return;
    setBusy(true);
    try {
      const r = await submitRealname({ name: name.trim(), idNumber: normaliseIdNumber(idNumber) });
      if (r.ok) {
        toast.success(r.message || t('realname.success'));
        await Promise.all([
          client.invalidateQueries({ queryKey: ['realname-info'] }),
          client.invalidateQueries({ queryKey: ['security-setting'] }),
          fetchProfile(),
        ]);
      } else {
        setServerError(r.networkError ? t('realname.network') : r.message || t('common.requestFailed'));
      }
    } finally {
      setBusy(false);
    }
  };

  const errorText = (e: RealnameError | undefined) => (e ? t(`realname.errors.${e}`, { age: MINIMUM_AGE }) : '');

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="max-w-md space-y-4" data-testid="realname-section" data-status="unverified">
      <p className="text-sm text-ink-soft">{t('realname.intro', { age: MINIMUM_AGE })}</p>
      <div>
        <label htmlFor="realname-name" className="mb-1.5 block text-sm text-ink-soft">
          {t('realname.name')}
        </label>
        <input
          id="realname-name"
          className={`field-input ${errors.name ? 'border-danger' : ''}`}
          value={name}
          maxLength={50}
          autoComplete="name"
          placeholder={t('realname.namePlaceholder')}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? 'realname-name-error' : undefined}
          onChange={(e) => {
            setName(e.target.value);
            if (errors.name) setErrors((x) => ({ ...x, name: undefined }));
          }}
          data-testid="realname-name"
        />
        {errors.name && (
          <p id="realname-name-error" className="mt-1 text-xs text-danger" role="alert" data-testid="realname-name-error">
            {errorText(errors.name)}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="realname-id" className="mb-1.5 block text-sm text-ink-soft">
          {t('realname.idNumber')}
        </label>
        <input
          id="realname-id"
          className={`field-input tabular ${errors.id ? 'border-danger' : ''}`}
          value={idNumber}
          maxLength={22}
          inputMode="text"
          autoComplete="off"
          placeholder={t('realname.idPlaceholder')}
          aria-invalid={errors.id ? true : undefined}
          aria-describedby={errors.id ? 'realname-id-error' : undefined}
          onChange={(e) => {
            setIdNumber(e.target.value);
            if (errors.id) setErrors((x) => ({ ...x, id: undefined }));
          }}
          data-testid="realname-id"
        />
        {errors.id && (
          <p id="realname-id-error" className="mt-1 text-xs text-danger" role="alert" data-testid="realname-id-error">
            {errorText(errors.id)}
          </p>
        )}
      </div>
      {serverError && (
        <p className="rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="realname-error">
          {serverError}
        </p>
      )}
      <p className="text-xs text-ink-faint">{t('realname.privacy')}</p>
      <button type="submit" className="btn-primary min-w-32" disabled={busy} data-testid="realname-submit">
        {busy ? (
          <>
            <Spinner /> {t('realname.submitting')}
          </>
        ) : (
          t('realname.submit')
        )}
      </button>
    </form>
  );
}
