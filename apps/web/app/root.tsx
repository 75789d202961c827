import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { data, Links, Meta, Outlet, Scripts, useLocation, useNavigate, useRouteLoaderData, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { Route } from './+types/root';
import { createI18n, DEFAULT_LANG, hasNamespaces, I18nContext, langFromCookieHeader, mergeCatalog, useTranslation, type Lang, type RootData } from './i18n/index.ts';
import { catalogPart } from './i18n/catalogs.server.ts';
import { namespacesForPath } from './i18n/namespaces.ts';
import { isChunkLoadError, reloadForChunkError } from './lib/chunk-reload.ts';
import { registerNavigate } from './lib/navigation.ts';
import { fetchProfile, showFlashToast } from './lib/session.ts';
import { useAuthOverlay } from './stores/auth-overlay.ts';
import { toast } from './stores/toast.ts';
import { useUiStore } from './stores/ui.ts';
import { useUserStore } from './stores/user.ts';
import { useWalletStore } from './stores/wallet.ts';
import { Toaster } from './components/ui/toaster.tsx';
import { ErrorPage } from './components/ui/error-page.tsx';
import { RouteProgress } from './components/layout/route-progress.tsx';
import { DevModeBanner } from './components/layout/dev-mode-banner.tsx';
import { startPwa } from './features/pwa/register.ts';
import { AppStyles } from './lib/inline-css.tsx';

/** The overlay is its own chunk: it loads on first open (or when the URL asks for it). */
const AuthOverlay = lazy(() => import('./features/auth/components/auth-overlay.tsx'));
/** The wallet dialog and the dev-wallet panel: their own chunk, loaded on first open. */
const WalletRoot = lazy(() => import('./features/wallet/components/wallet-root.tsx'));

/** The stylesheet is not here: `<AppStyles>` inlines it in the head (lib/inline-css.tsx). */
export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }];

/**
 * The language comes from the `lang` cookie; an unsupported value is a 404. The catalog part is the
 * `common` namespace and the route's (i18n/namespaces.ts): a page's HTML carries only its own strings.
 */
export function loader({ request, context }: Route.LoaderArgs): RootData {
  const lang = langFromCookieHeader(request.headers.get('Cookie'));
  if (lang === 'invalid') throw data(null, { status: 404 });
  const devMode = Boolean((context as { devMode?: boolean } | undefined)?.devMode);
  // A client navigation's data request (a fetch, not a document): the browser has held `common` since its first page.
  const dataRequest = request.headers.get('Sec-Fetch-Dest') === 'empty';
  const namespaces = namespacesForPath(new URL(request.url).pathname).filter((ns) => !(dataRequest && ns === 'common'));
  return { lang, namespaces, messages: catalogPart(lang, namespaces), ...(devMode ? { devMode } : {}) };
}

/**
 * The language only changes through a reload. A client navigation refetches root data only when the
 * next page needs a catalog namespace the browser has not received yet: it arrives with the route
 * data, before the page renders (no flash of keys).
 */
export function shouldRevalidate({ nextUrl }: ShouldRevalidateFunctionArgs) {
  return !hasNamespaces(namespacesForPath(nextUrl.pathname));
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData('root') as RootData | undefined;
  const lang = rootData?.lang ?? DEFAULT_LANG;
  const namespaces = rootData?.namespaces;
  const part = rootData?.messages;
  // In the browser the catalog grows with every namespace received (i18n/index.ts mergeCatalog).
  const messages = useMemo(() => (part && namespaces ? mergeCatalog(lang, namespaces, part) : undefined), [lang, namespaces, part]);
  const i18n = useMemo(() => createI18n(lang, messages), [lang, messages]);
  return (
    <html lang={lang === 'zh' ? 'zh-CN' : 'en'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b0c1a" />
        <AppStyles />
        <link rel="manifest" href={lang === 'en' ? '/manifest.en.webmanifest' : '/manifest.webmanifest'} />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <Meta />
        <Links />
      </head>
      <body>
        <I18nContext value={i18n}>
          {rootData?.devMode && <DevModeBanner />}
          {children}
        </I18nContext>
        <Scripts />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AppEffects lang={loaderData.lang} />
      <RouteProgress />
      <Outlet />
      <Toaster />
      <OverlayMount />
      <WalletMount />
    </>
  );
}

function OverlayMount() {
  const everOpened = useAuthOverlay((s) => s.everOpened);
  if (!everOpened) return null;
  return (
    <Suspense fallback={null}>
      <AuthOverlay />
    </Suspense>
  );
}

function WalletMount() {
  const everOpened = useWalletStore((s) => s.everOpened);
  if (!everOpened) return null;
  return (
    <Suspense fallback={null}>
      <WalletRoot />
    </Suspense>
  );
}

/** Start-up and app-wide behaviour that has no UI of its own. */
function AppEffects({ lang }: { lang: Lang }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  // Non-React modules (api client) navigate through the router.
  useEffect(() => {
    registerNavigate((to, opts) => navigate(to, opts));
    return () => registerNavigate(null);
  }, [navigate]);

  useEffect(() => useUiStore.getState().setLang(lang), [lang]);

  // Hydration marker: browser tests wait for it after every navigation before they interact.
  useEffect(() => {
    document.documentElement.dataset.hydrated = '1';
  }, []);

  // The service worker and the install prompt (features/pwa): after hydration, once the page has loaded;
  // no worker under the Vite dev server (import.meta.hot exists only there).
  useEffect(() => startPwa(!import.meta.hot), []);

  // Scroll to top on every route change; the first render keeps the browser's position.
  const lastPath = useRef(pathname);
  useEffect(() => {
    if (lastPath.current === pathname) return;
    lastPath.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);

  // Load the stored token, fetch the profile, show a pending flash message.
  useEffect(() => {
    const user = useUserStore.getState();
    user.loadFromStorage();
    useWalletStore.getState().loadKind();
    if (useUserStore.getState().token) {
      void fetchProfile();
      // once the wallet provider is ready, ask the wallet login status (lazy chunk).
      import('./features/wallet/status.ts')
        .then((m) => m.restoreWalletStatus())
        .catch((err: unknown) => console.error('[wallet] status', err));
    }
    showFlashToast();

    // Auto-open the register view for invite / channel links when no token is stored.
    const params = new URLSearchParams(window.location.search);
    const inviteCode = params.get('inviteCode');
    const registChannel = params.get('registChannel');
    // Not on the full-page /account forms: they read these themselves (features/auth/pages).
    if ((inviteCode || registChannel) && !useUserStore.getState().token && !window.location.pathname.startsWith('/account/')) {
      useAuthOverlay.getState().openOverlay('register', {
        inviteCode: (inviteCode ?? '').slice(0, 6),
        registChannel: registChannel ?? '',
      });
    }
  }, []);

  // Online / offline tracking.
  useEffect(() => {
    const ui = useUiStore.getState();
    ui.setOnline(navigator.onLine);
    const on = () => {
      useUiStore.getState().setOnline(true);
      toast.success(t('network.online'));
    };
    const off = () => {
      useUiStore.getState().setOnline(false);
      toast.warning(t('network.offline'));
    };
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, [t]);

  // Vite reports failed module preloads here (a new deployment removed old chunks).
  useEffect(() => {
    const onPreloadError = (event: Event) => {
      if (reloadForChunkError()) event.preventDefault();
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      if (isChunkLoadError(event.reason)) reloadForChunkError();
    };
    window.addEventListener('vite:preloadError', onPreloadError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('vite:preloadError', onPreloadError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, []);

  return null;
}

/** Errors above every layout (e.g. the unsupported-language 404): the bare error page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  useEffect(() => {
    if (isChunkLoadError(error)) reloadForChunkError();
  }, [error]);
  // The hydration marker of AppEffects: this page renders without App.
  useEffect(() => {
    document.documentElement.dataset.hydrated = '1';
  }, []);
  return (
    <>
      <ErrorPage error={error} />
      <Toaster />
    </>
  );
}
