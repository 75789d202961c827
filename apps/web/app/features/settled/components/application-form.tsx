import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SETTLED_CATEGORIES, SETTLED_LIMITS, type SettledField } from '@cfx/contract/settled-rules.ts';
import { useTranslation } from '../../../i18n/index.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { submitApplication } from '../api/submit-application.ts';
import { EMPTY_FORM, megabytes, toSettledInput, validateSettledForm, type SettledFormValues } from '../validate.ts';
import { UploadField, type UploadState } from './upload-field.tsx';

const L = SETTLED_LIMITS;

/**
 * The project application form (/project-enter, /official/settled): project, artworks and
 * proof of rights (uploaded as they are chosen, with progress and previews), contact and the
 * agreement to the compliance rules (help part3-2). Checked here with the server's own rules and
 * texts before it is sent; the server's answer (a broken rule, an attachment that is not the
 * user's, an application already open) is shown above the button.
 */
export function ApplicationForm({ limits, onSubmitted }: { limits: { imageMaxBytes: number; fileMaxBytes: number }; onSubmitted(): void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<SettledFormValues>(EMPTY_FORM);
  const [errors, setErrors] = useState<Set<SettledField>>(new Set());
  const [uploading, setUploading] = useState({ artworks: false, qualifications: false });
  const [serverError, setServerError] = useState('');
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const set = <K extends keyof SettledFormValues>(k: K, v: SettledFormValues[K], field: SettledField = k as SettledField) => {
    setValues((x) => ({ ...x, [k]: v }));
    if (errors.has(field)) setErrors((e) => new Set([...e].filter((f) => f !== field)));
  };
  const onUploads = (which: 'artworks' | 'qualifications') => (s: UploadState) => {
    setUploading((u) => ({ ...u, [which]: s.uploading }));
    set(which === 'artworks' ? 'artworkKeys' : 'qualificationKeys', s.keys);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setServerError('');
    if (uploading.artworks || uploading.qualifications) {
      setServerError(t('settled.waitUploads'));
      return;
    }
    const bad = validateSettledForm(values);
    setErrors(new Set(bad));
    if (bad.length) {
      formRef.current?.querySelector<HTMLElement>(`[data-field="${bad[0]}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      return;
    }
    setBusy(true);
    try {
      const r = await submitApplication(toSettledInput(values));
      if (r.ok) onSubmitted();
      else setServerError(r.networkError ? t('settled.networkError') : r.message || t('common.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  const err = (f: SettledField) => (errors.has(f) ? t(`settled.errors.${f}`) : '');
  const input = (k: 'projectName' | 'creatorName' | 'supply' | 'price' | 'contactName' | 'mobile' | 'email', field: SettledField, extra: Record<string, unknown> = {}) => (
    <input
      id={`settled-${k}`}
      className={`field-input ${errors.has(field) ? 'border-danger' : ''}`}
      value={values[k]}
      placeholder={t(`settled.placeholders.${k}`)}
      aria-invalid={errors.has(field) || undefined}
      aria-describedby={errors.has(field) ? `settled-error-${field}` : undefined}
      onChange={(e) => set(k, e.target.value, field)}
      data-testid={`settled-${k}`}
      {...extra}
    />
  );

  return (
    <form ref={formRef} onSubmit={(e) => void onSubmit(e)} noValidate className="card space-y-8 p-5 sm:p-8" data-testid="settled-form">
      <Section title={t('settled.sections.project')}>
        <Field label={t('settled.fields.projectName')} htmlFor="settled-projectName" field="projectName" error={err('projectName')}>
          {input('projectName', 'projectName', { maxLength: L.projectNameMax + 10 })}
        </Field>
        <Field label={t('settled.fields.creatorName')} htmlFor="settled-creatorName" field="creatorName" error={err('creatorName')}>
          {input('creatorName', 'creatorName', { maxLength: L.creatorNameMax + 10, autoComplete: 'organization' })}
        </Field>
        <Field label={t('settled.fields.category')} htmlFor="settled-category" field="category" error={err('category')}>
          <select
            id="settled-category"
            className={`field-input ${errors.has('category') ? 'border-danger' : ''}`}
            value={values.category}
            aria-invalid={errors.has('category') || undefined}
            aria-describedby={errors.has('category') ? 'settled-error-category' : undefined}
            onChange={(e) => set('category', e.target.value)}
            data-testid="settled-category"
          >
            <option value="">{t('settled.placeholders.category')}</option>
            {SETTLED_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(`settled.categories.${c}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={t('settled.fields.description')}
          htmlFor="settled-description"
          field="description"
          error={err('description')}
          aside={<span className="tabular">{t('settled.chars', { n: [...values.description.trim()].length, max: L.descriptionMax })}</span>}
        >
          <textarea
            id="settled-description"
            className={`field-input h-36 resize-y py-2 leading-relaxed ${errors.has('description') ? 'border-danger' : ''}`}
            value={values.description}
            maxLength={L.descriptionMax + 200}
            placeholder={t('settled.placeholders.description')}
            aria-invalid={errors.has('description') || undefined}
            aria-describedby={errors.has('description') ? 'settled-error-description' : undefined}
            onChange={(e) => set('description', e.target.value)}
            data-testid="settled-description"
          />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label={t('settled.fields.supply')} htmlFor="settled-supply" field="supply" error={err('supply')}>
            {input('supply', 'supply', { inputMode: 'numeric', maxLength: 12 })}
          </Field>
          <Field label={t('settled.fields.price')} htmlFor="settled-price" field="priceFen" error={err('priceFen')}>
            {input('price', 'priceFen', { inputMode: 'decimal', maxLength: 16 })}
          </Field>
        </div>
      </Section>

      <Section title={t('settled.sections.materials')}>
        <Field
          label={t('settled.fields.artworks')}
          htmlFor="settled-artworks"
          field="artworkKeys"
          error={err('artworkKeys')}
          hint={t('settled.artworksHint', { mb: megabytes(limits.imageMaxBytes), max: L.artworkMax })}
        >
          <UploadField
            kind="image"
            id="settled-artworks"
            maxBytes={limits.imageMaxBytes}
            maxFiles={L.artworkMax}
            invalid={errors.has('artworkKeys')}
            describedBy="settled-hint-artworkKeys"
            onChange={onUploads('artworks')}
          />
        </Field>
        <Field
          label={t('settled.fields.qualifications')}
          htmlFor="settled-qualifications"
          field="qualificationKeys"
          error={err('qualificationKeys')}
          hint={t('settled.qualificationsHint', { mb: megabytes(limits.fileMaxBytes), max: L.qualificationMax })}
        >
          <UploadField
            kind="document"
            id="settled-qualifications"
            maxBytes={limits.fileMaxBytes}
            maxFiles={L.qualificationMax}
            invalid={errors.has('qualificationKeys')}
            describedBy="settled-hint-qualificationKeys"
            onChange={onUploads('qualifications')}
          />
        </Field>
      </Section>

      <Section title={t('settled.sections.contact')}>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label={t('settled.fields.contactName')} htmlFor="settled-contactName" field="contactName" error={err('contactName')}>
            {input('contactName', 'contactName', { maxLength: L.contactNameMax + 10, autoComplete: 'name' })}
          </Field>
          <Field label={t('settled.fields.mobile')} htmlFor="settled-mobile" field="mobile" error={err('mobile')}>
            {input('mobile', 'mobile', { inputMode: 'tel', maxLength: 11, autoComplete: 'tel' })}
          </Field>
        </div>
        <Field label={t('settled.fields.email')} htmlFor="settled-email" field="email" error={err('email')}>
          {input('email', 'email', { type: 'email', maxLength: L.emailMax, autoComplete: 'email' })}
        </Field>
      </Section>

      <div data-field="agree">
        <label className="flex items-start gap-2 text-sm text-ink-soft">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-brand"
            checked={values.agree}
            onChange={(e) => set('agree', e.target.checked)}
            aria-invalid={errors.has('agree') || undefined}
            aria-describedby={errors.has('agree') ? 'settled-error-agree' : undefined}
            data-testid="settled-agree"
          />
          <span>
            {t('settled.agreePrefix')}
            <Link to="/help/part3-2" target="_blank" rel="noopener" className="text-brand hover:underline">
              {t('settled.agreeLink')}
            </Link>
          </span>
        </label>
        {errors.has('agree') && (
          <p id="settled-error-agree" className="mt-1 text-xs text-danger" role="alert" data-testid="settled-error-agree">
            {err('agree')}
          </p>
        )}
      </div>

      {serverError && (
        <p className="rounded-control bg-danger/10 px-3 py-2 text-sm text-danger" role="alert" data-testid="settled-server-error">
          {serverError}
        </p>
      )}
      <button type="submit" className="btn-primary h-11 min-w-40 text-base" disabled={busy} data-testid="settled-submit">
        {busy ? (
          <>
            <Spinner /> {t('settled.submitting')}
          </>
        ) : (
          t('settled.submit')
        )}
      </button>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-5">
      <legend className="mb-4 border-l-4 border-brand pl-2 text-base font-semibold text-ink">{title}</legend>
      {children}
    </fieldset>
  );
}

function Field({
  label,
  htmlFor,
  field,
  error,
  hint,
  aside,
  children,
}: {
  label: string;
  htmlFor: string;
  field: SettledField;
  error: string;
  hint?: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div data-field={field}>
      <div className="mb-1.5 flex items-baseline justify-between gap-3">
        <label htmlFor={htmlFor} className="text-sm text-ink-soft">
          <span className="text-danger" aria-hidden>
            *{' '}
          </span>
          {label}
        </label>
        {aside && <span className="text-xs text-ink-faint">{aside}</span>}
      </div>
      {children}
      {hint && (
        <p id={`settled-hint-${field}`} className="mt-1.5 text-xs text-ink-faint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`settled-error-${field}`} className="mt-1 text-xs text-danger" role="alert" data-testid={`settled-error-${field}`}>
          {error}
        </p>
      )}
    </div>
  );
}
