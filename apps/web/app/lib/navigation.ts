/**
 * Lets non-React code (the api client, stores) navigate with the router once the app has
 * registered its `navigate`; before that (or on the server) it falls back to a full load.
 */
type NavigateFn = (to: string, opts?: { replace?: boolean }) => void;
let navigateFn: NavigateFn | null = null;

export function registerNavigate(fn: NavigateFn | null) {
  navigateFn = fn;
}

export function goTo(to: string, opts: { replace?: boolean } = {}) {
  if (navigateFn) navigateFn(to, opts);
  else if (typeof window !== 'undefined') window.location.assign(to);
}

export function isPersonalCenterPath(pathname: string): boolean {
  return pathname === '/personal-center' || pathname.startsWith('/personal-center/');
}
