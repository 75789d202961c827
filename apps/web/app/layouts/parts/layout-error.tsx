import { useEffect } from 'react';
import { ErrorPage } from '../../components/ui/error-page.tsx';
import { isChunkLoadError, reloadForChunkError } from '../../lib/chunk-reload.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

/** Errors below a layout keep the site chrome around the error page. */
export function LayoutErrorBoundary({ error }: { error: unknown }) {
  useEffect(() => {
    if (isChunkLoadError(error)) reloadForChunkError();
    else if (!(error && typeof error === 'object' && 'status' in error)) console.error(error);
  }, [error]);
  return (
    <div className="flex min-h-screen flex-col">
      <Header themeType={2} />
      <main className="flex-1 pt-header">
        <ErrorPage error={error} />
      </main>
      <Footer />
    </div>
  );
}
