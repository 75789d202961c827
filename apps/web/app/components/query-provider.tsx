import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';

let browserClient: QueryClient | undefined;

function makeClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } } });
}

/**
 * TanStack Query for the parts of the app that fetch with it (today: the personal center).
 * Mounted by those layouts rather than root so pages without queries do not load it (~5 KiB gzip);
 * one client per browser tab, so the cache survives navigating between them.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(() => (typeof window === 'undefined' ? makeClient() : (browserClient ??= makeClient())));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
