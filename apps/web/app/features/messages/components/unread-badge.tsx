import { useTranslation } from '../../../i18n/index.ts';
import { useMessageStream } from '../stream.ts';

/**
 * The unread count as a small red pill ("99+" above 99). Always rendered with `data-count`
 * (empty before the first count arrives) so tests and styles can read it; hidden while 0.
 */
export function UnreadBadge({ testId, className = '' }: { testId: string; className?: string }) {
  const { t } = useTranslation();
  const unread = useMessageStream((s) => s.unread);
  const n = unread ?? 0;
  return (
    <span
      data-testid={testId}
      data-count={unread === null ? '' : String(n)}
      hidden={n === 0}
      aria-label={n > 0 ? t('messageCenter.unreadLabel', { count: n }) : undefined}
      className={`tabular inline-flex h-4 min-w-4 items-center justify-center rounded-full bg-danger px-1 text-[10px] font-medium leading-none text-white ${className}`}
    >
      {n > 99 ? '99+' : n}
    </span>
  );
}
