import { useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { STORAGE } from '../config.ts';
import { PC_MENU, navIndexFor } from '../lib/nav-index.ts';
import { readStorage } from '../lib/storage.ts';
import { useUiStore } from '../stores/ui.ts';
import { useUserStore } from '../stores/user.ts';
import { LoadingBlock } from '../components/ui/spinner.tsx';
import { QueryProvider } from '../components/query-provider.tsx';
import { Avatar } from './parts/header.tsx';
import { TicketUnreadDot } from '../features/tickets/components/unread-dot.tsx';
import { UnreadBadge } from '../features/messages/components/unread-badge.tsx';

/**
 * Personal-center shell: token guard (client side, since the token lives in localStorage),
 * the navigation index, a profile summary and the side menu.
 */
export default function PersonalCenterLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const navIndex = useUiStore((s) => s.navIndex);
  const setNavIndex = useUiStore((s) => s.setNavIndex);
  const hydrated = useUserStore((s) => s.hydrated);
  const token = useUserStore((s) => s.token);
  const [allowed, setAllowed] = useState(false);

  useEffect(() => setNavIndex(navIndexFor(pathname)), [pathname, setNavIndex]);

  useEffect(() => {
    // Before the store is hydrated, read storage directly so the guard never waits on it.
    const present = hydrated ? token !== '' : readStorage(STORAGE.token) !== null;
    if (!present) navigate('/', { replace: true });
    else setAllowed(true);
  }, [hydrated, token, navigate]);

  return (
    <div className="page-width py-8" data-testid="personal-center" data-nav-index={navIndex}>
      {!allowed ? (
        <LoadingBlock label={t('pc.checking')} />
      ) : (
        <div className="grid grid-cols-1 gap-6 md:grid-cols-[220px_minmax(0,1fr)]">
          <aside className="min-w-0 space-y-4">
            <ProfileSummary />
            <nav aria-label={t('pc.title')} className="card p-2">
              <ul className="flex gap-1 overflow-x-auto md:flex-col">
                {PC_MENU.map((item) => (
                  <li key={item.key} className="shrink-0">
                    <Link
                      to={item.path}
                      data-testid={`pc-nav-${item.index}`}
                      aria-current={navIndex === item.index ? 'page' : undefined}
                      className={`block rounded-md px-4 py-2.5 text-sm transition-colors ${
                        navIndex === item.index ? 'bg-brand-soft font-medium text-brand' : 'text-ink-soft hover:bg-canvas hover:text-ink'
                      }`}
                    >
                      {t(`pc.nav.${item.key}`)}
                      {item.key === 'contactService' && <TicketUnreadDot />}
                      {item.key === 'messageCenter' && <UnreadBadge testId="pc-nav-unread" className="ml-2" />}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </aside>
          <section className="min-w-0">
            <QueryProvider>
              <Outlet />
            </QueryProvider>
          </section>
        </div>
      )}
    </div>
  );
}

function ProfileSummary() {
  const { t } = useTranslation();
  const user = useUserStore();
  return (
    <div className="card flex items-center gap-3 p-4 md:flex-col md:text-center" data-testid="pc-profile">
      <Avatar url={user.avatar} size="size-14" />
      <div className="min-w-0">
        <p className="truncate text-base font-medium text-ink" data-testid="pc-nickname">
          {user.nickname || '—'}
        </p>
        <p className="text-xs text-ink-faint">{user.mobile}</p>
        <p className="mt-1 text-xs">
          <span className={user.isRealname === '1' ? 'text-success' : 'text-ink-faint'}>
            {user.isRealname === '1' ? t('pc.realnameDone') : t('pc.realnameNone')}
          </span>
        </p>
        <p className="mt-1 break-all text-xs text-ink-faint" title={t('pc.wallet')}>
          {user.walletAddress || t('pc.walletNone')}
        </p>
      </div>
    </div>
  );
}
