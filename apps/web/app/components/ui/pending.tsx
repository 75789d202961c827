import type { ReactNode } from 'react';
import { useLocation, useNavigation } from 'react-router';
import { useTranslation } from '../../i18n/index.ts';
import { Spinner } from './spinner.tsx';

/** True while a navigation to another page/filter of the current path is loading. */
export function useSamePathPending(): boolean {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  return navigation.state === 'loading' && navigation.location?.pathname === pathname;
}

/**
 * A list region (test id = its `id`) that dims and shows a spinner while its next page or filter loads (the old
 * content stays in place, so nothing jumps).
 */
export function PendingRegion({ children, className = '', id }: { children: ReactNode; className?: string; id?: string }) {
  const { t } = useTranslation();
  const pending = useSamePathPending();
  return (
    <div id={id} data-testid={id} className={`relative scroll-mt-24 ${className}`} aria-busy={pending}>
      <div className={pending ? 'pointer-events-none opacity-50 transition-opacity' : 'transition-opacity'}>{children}</div>
      {pending && (
        <div className="absolute inset-x-0 top-10 flex justify-center" role="status" data-testid="loading">
          <span className="flex items-center gap-2 rounded-full bg-surface px-4 py-2 text-sm text-ink-soft shadow-pop">
            <Spinner /> {t('common.loading')}
          </span>
        </div>
      )}
    </div>
  );
}
