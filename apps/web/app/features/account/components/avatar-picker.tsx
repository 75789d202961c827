import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { fetchProfile } from '../../../lib/session.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { EmptyBlock, LoadingBlock, Spinner } from '../../../components/ui/spinner.tsx';
import { changeProfpic } from '../api/change-profpic.ts';
import { listProfpics } from '../api/list-profpics.ts';

/** Change avatar: choose one of the server's avatars (profpic/list → changeprofpic {id}). */
export function AvatarPicker() {
  const { t } = useTranslation();
  const current = useUserStore((s) => s.avatar);
  const token = useUserStore((s) => s.token);
  const pics = useQuery({ queryKey: ['profpics', token], queryFn: listProfpics, enabled: token !== '' });
  const [selected, setSelected] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save() {
    if (!selected) return void toast.warning(t('settings.avatarPickFirst'));
    const pic = pics.data?.find((p) => p.id === selected);
    if (pic && pic.url === current) return void toast.info(t('settings.avatarSame'));
    setSaving(true);
    const r = await changeProfpic(selected);
    setSaving(false);
    if (r.ok) {
      toast.success(r.message || t('settings.saved'));
      await fetchProfile();
      setSelected(null);
    }
  }

  return (
    <div data-testid="avatar-picker">
      <div className="flex items-center gap-4">
        {current ? (
          <img src={current} alt="" className="size-20 rounded-full bg-canvas object-cover" data-testid="avatar-current" />
        ) : (
          <span className="size-20 rounded-full bg-gradient-to-br from-brand to-accent" aria-hidden />
        )}
        <p className="text-sm text-ink-soft">{t('settings.chooseAvatar')}</p>
      </div>
      {pics.isPending && pics.fetchStatus !== 'idle' ? (
        <LoadingBlock label={t('common.loading')} />
      ) : pics.isError ? (
        <div className="py-6 text-center text-sm text-ink-faint">
          {t('common.loadFailed')}{' '}
          <button type="button" className="text-brand hover:underline" onClick={() => void pics.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      ) : !pics.data?.length ? (
        <EmptyBlock label={t('settings.avatarsEmpty')} />
      ) : (
        <ul className="mt-4 grid grid-cols-4 gap-3 sm:grid-cols-6 lg:grid-cols-8" role="listbox" aria-label={t('settings.chooseAvatar')}>
          {pics.data.map((pic) => {
            const isSelected = selected === pic.id;
            const isCurrent = pic.url === current;
            return (
              <li key={pic.id}>
                <button
                  type="button"
                  role="option"
                  aria-selected={isSelected}
                  data-testid="avatar-option"
                  data-id={pic.id}
                  onClick={() => setSelected(pic.id)}
                  className={`block rounded-full p-0.5 ring-2 transition ${isSelected ? 'ring-brand' : isCurrent ? 'ring-line' : 'ring-transparent hover:ring-brand/40'}`}
                >
                  <img src={pic.url} alt="" loading="lazy" className="aspect-square w-full rounded-full bg-canvas object-cover" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <button type="button" className="btn-primary mt-4" onClick={() => void save()} disabled={saving} data-testid="avatar-save">
        {saving && <Spinner />}
        {saving ? t('common.saving') : t('settings.avatarSave')}
      </button>
    </div>
  );
}
