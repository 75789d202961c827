import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { useUserStore } from '../../../stores/user.ts';
import { toast } from '../../../stores/toast.ts';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { getPrivacySetting } from '../api/get-privacy-setting.ts';
import { setPrivacySetting } from '../api/set-privacy-setting.ts';
import type { PrivacySetting } from '../api/types.ts';

/** The privacy switches (privacy/other/getsetting + setsetting); each toggle is saved at once. */
export function PrivacySection() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const client = useQueryClient();
  const key = ['privacy-setting', token];
  const q = useQuery({ queryKey: key, queryFn: getPrivacySetting, enabled: token !== '' });
  const [saving, setSaving] = useState<keyof PrivacySetting | null>(null);

  async function toggle(name: keyof PrivacySetting, value: boolean) {
    setSaving(name);
    const r = await setPrivacySetting({ [name]: value });
    setSaving(null);
    if (!r.ok || !r.data) return;
    client.setQueryData(key, r.data);
    toast.success(r.message || t('settings.saved'));
    await client.invalidateQueries({ queryKey: ['security-events'] });
  }

  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) {
    return (
      <p className="flex items-center gap-3 py-4 text-sm text-ink-faint" data-testid="privacy-section" data-status="error">
        {t('common.loadFailed')}
        <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  const rows: { name: keyof PrivacySetting; label: string; hint: string; testId: string }[] = [
    { name: 'showCollection', label: t('settings.showCollection'), hint: t('privacy.showCollectionHint'), testId: 'privacy-show-collection' },
    { name: 'personalizedRecommend', label: t('settings.personalizedRecommend'), hint: t('privacy.recommendHint'), testId: 'privacy-recommend' },
  ];
  return (
    <dl data-testid="privacy-section">
      {rows.map((row) => {
        const on = q.data[row.name];
        return (
          <div key={row.name} className="flex items-center gap-4 border-b border-line py-3 last:border-0">
            <dt className="min-w-0 flex-1">
              <span className="block text-sm text-ink" id={`${row.testId}-label`}>
                {row.label}
              </span>
              <span className="mt-0.5 block text-xs text-ink-faint">{row.hint}</span>
            </dt>
            <dd className="flex shrink-0 items-center gap-2">
              {saving === row.name && <Spinner className="text-ink-faint" />}
              <span className="text-xs text-ink-soft" data-testid={row.testId}>
                {on ? t('settings.on') : t('settings.off')}
              </span>
              <button
                type="button"
                role="switch"
                aria-checked={on}
                aria-labelledby={`${row.testId}-label`}
                disabled={saving !== null}
                onClick={() => void toggle(row.name, !on)}
                data-testid={`${row.testId}-switch`}
                className={`relative h-6 w-11 rounded-full transition-colors disabled:opacity-60 ${on ? 'bg-brand' : 'bg-line'}`}
              >
                <span aria-hidden className={`absolute top-0.5 size-5 rounded-full bg-white shadow transition-all ${on ? 'left-[22px]' : 'left-0.5'}`} />
              </button>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
