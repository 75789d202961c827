import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { StaffMe } from '@cfx/contract/admin.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ErrorPage } from '../components/ui/error-page.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { adminApi, toLogin } from '../features/admin/api.ts';
import { notify, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { NAV_GROUPS, visibleNav } from '../features/admin/nav.ts';
import { staffToken, useStaffStore } from '../features/admin/session.ts';

/** Console pages are for staff: never indexed, never cached (no console data is rendered on the server anyway). */
export function headers() {
  return { 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-store' };
}

/**
 * The console shell (docs/admin.md "Web"): its own full-screen layout without the public header
 * and footer, a side navigation built from the staff member's permissions, and the session check —
 * the staff token lives in this tab's sessionStorage, so everything here happens in the browser:
 * without a token (or when /auth/me says it ended) the page goes to /admin/login.
 */
export default function AdminLayout() {
  const t = useAdminT();
  const me = useStaffStore((s) => s.me);
  const setMe = useStaffStore((s) => s.setMe);
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    if (!staffToken.get()) {
      toLogin();
      return;
    }
    if (me) return;
    let live = true;
    void adminApi<StaffMe>(AdminPaths.me).then((r) => {
      if (live && r.ok) setMe(r.data);
    });
    return () => {
      live = false;
    };
  }, [me, setMe]);

  useEffect(() => setMenuOpen(false), [pathname]);

  const logout = async () => {
    const r = await adminApi(AdminPaths.logout);
    staffToken.clear();
    setMe(null);
    if (r.ok) notify.ok(t('shell.loggedOut'));
    toLogin();
  };

  return (
    <div className="min-h-screen bg-canvas" data-testid="admin-shell">
      <title>{`${t('app.title')} - CFX Art`}</title>
      <meta name="robots" content="noindex, nofollow" />
      {!me ? (
        <div className="flex min-h-screen items-center justify-center gap-2 text-ink-faint" role="status" data-testid="admin-checking">
          <Spinner /> {t('common.loading')}
        </div>
      ) : (
        <div className="grid min-h-screen grid-cols-1 md:grid-cols-[220px_minmax(0,1fr)]">
          <aside className="bg-night text-white md:sticky md:top-0 md:h-screen md:overflow-y-auto">
            <div className="flex items-center justify-between px-5 py-4">
              <span className="font-semibold" data-testid="admin-brand">
                {t('app.brand')}
              </span>
              <button type="button" className="rounded px-2 py-1 text-sm text-white/80 md:hidden" aria-expanded={menuOpen} onClick={() => setMenuOpen((v) => !v)}>
                {t('shell.menu')}
              </button>
            </div>
            <nav aria-label={t('shell.menu')} className={`${menuOpen ? 'block' : 'hidden'} pb-6 md:block`} data-testid="admin-nav">
              {NAV_GROUPS.map((g) => {
                const items = visibleNav(me.permissions).filter((n) => n.group === g.id);
                if (!items.length) return null;
                return (
                  <div key={g.id} className="mt-3">
                    <p className="px-5 pb-1 text-xs uppercase tracking-wide text-white/45">{t(g.label)}</p>
                    <ul>
                      {items.map((n) => (
                        <li key={n.to}>
                          <NavLink
                            to={n.to}
                            end={n.to === '/admin'}
                            data-testid={n.testId}
                            className={({ isActive }) => `block px-5 py-2 text-sm ${isActive ? 'bg-white/10 font-medium text-white' : 'text-white/75 hover:bg-white/5 hover:text-white'}`}
                          >
                            {t(n.label)}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  </div>
                );
              })}
            </nav>
          </aside>
          <div className="min-w-0">
            <header className="flex flex-wrap items-center justify-end gap-3 border-b border-line bg-surface px-6 py-3 text-sm">
              <span className="text-ink-faint" title={t('shell.sessionEnds', { time: when(me.sessionExpiresAt) })}>
                <span className="font-medium text-ink" data-testid="admin-me">
                  {me.username}
                </span>{' '}
                · {me.roles.map((r) => t(`roles.${r}`)).join(' / ')}
              </span>
              <button type="button" className="btn-ghost h-8" onClick={() => void logout()} data-testid="admin-logout">
                {t('shell.logout')}
              </button>
            </header>
            <main className="p-6">
              <StaffQueries key={me.id}>
                <Outlet />
              </StaffQueries>
            </main>
          </div>
        </div>
      )}
    </div>
  );
}

/** The console's own query cache, one per signed-in staff member (nothing cached crosses to the next one). */
function StaffQueries({ children }: { children: React.ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

export function ErrorBoundary({ error }: { error: unknown }) {
  return <ErrorPage error={error} />;
}
