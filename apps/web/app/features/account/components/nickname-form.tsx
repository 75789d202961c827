import { useEffect, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import { fetchProfile } from '../../../lib/session.ts';
import { charLength } from '../../../lib/text.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { modifyNickname } from '../api/modify-nickname.ts';

/** Change nickname (1-16 characters). The typed value is kept when the server refuses it. */
export function NicknameForm() {
  const { t } = useTranslation();
  const nickname = useUserStore((s) => s.nickname);
  const [value, setValue] = useState(nickname);
  const [dirty, setDirty] = useState(false);
  const save = useMutation({
    mutationFn: modifyNickname,
    onSuccess: async (r) => {
      if (!r.ok) return;
      toast.success(r.message || t('settings.saved'));
      setDirty(false);
      await fetchProfile();
    },
  });
  const saving = save.isPending;

  useEffect(() => {
    if (!dirty) setValue(nickname);
  }, [nickname, dirty]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const name = value.trim();
    if (!name) return void toast.warning(t('settings.nicknameEmpty'));
    if (charLength(name) > LIMITS.nicknameMax) return void toast.warning(t('settings.nicknameTooLong'));
    save.mutate(name);
  }

  return (
    <form onSubmit={submit} className="max-w-md" data-testid="nickname-form" noValidate>
      <label htmlFor="nickname" className="mb-1.5 block text-sm text-ink-soft">
        {t('settings.nickname')}
      </label>
      <div className="flex gap-2">
        <input
          id="nickname"
          className="field-input"
          value={value}
          maxLength={LIMITS.nicknameMax}
          placeholder={t('settings.nicknamePlaceholder')}
          onChange={(e) => {
            setValue(e.target.value);
            setDirty(true);
          }}
          data-testid="nickname-input"
        />
        <button type="submit" className="btn-primary h-11 shrink-0" disabled={saving} data-testid="nickname-save">
          {saving && <Spinner />}
          {saving ? t('common.saving') : t('settings.nicknameSave')}
        </button>
      </div>
      <p className="mt-1.5 text-xs text-ink-faint">{t('settings.nicknameHint')}</p>
    </form>
  );
}
