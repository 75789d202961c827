import { useTranslation } from '../../../i18n/index.ts';
import type { FollowView } from './use-follow.ts';

/**
 * 关注 / 已关注 (hover or focus: 取消关注). Disabled while a call runs; the count is shown by the page
 * (creator-follower-count) from the same state.
 */
export function FollowButton({ view, className = '' }: { view: FollowView; className?: string }) {
  const { t } = useTranslation();
  const on = view.following;
  return (
    <button
      type="button"
      onClick={view.toggle}
      disabled={view.pending}
      aria-pressed={on}
      className={`group ${on ? 'btn-ghost' : 'btn-primary'} min-w-28 ${className}`}
      data-testid="creator-follow-button"
      data-following={on ? '1' : '0'}
      data-pending={view.pending ? '1' : '0'}
    >
      {on ? (
        <>
          <span className="group-hover:hidden group-focus-visible:hidden">{t('creators.following')}</span>
          <span className="hidden group-hover:inline group-focus-visible:inline">{t('creators.unfollow')}</span>
        </>
      ) : (
        <>
          <span aria-hidden>＋</span> {t('creators.follow')}
        </>
      )}
    </button>
  );
}
