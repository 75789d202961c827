import { useOutletContext } from 'react-router';

export interface MainLayoutContext {
  /** Remounts the current page (the main layout's "reload ability"). */
  reload(): void;
}

/** For pages inside the main layout: remount the page without a full browser reload. */
export function useReloadPage(): () => void {
  return useOutletContext<MainLayoutContext | undefined>()?.reload ?? (() => window.location.reload());
}
