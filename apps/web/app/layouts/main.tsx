import { useCallback, useState } from 'react';
import { Outlet } from 'react-router';
import type { MainLayoutContext } from '../lib/reload-page.ts';
import { Footer } from './parts/footer.tsx';
import { Header } from './parts/header.tsx';
import { SideWidgets } from './parts/side-widgets.tsx';
import { LayoutErrorBoundary } from './parts/layout-error.tsx';

/** Main layout: header (theme type 2), footer, side index, and a page reload (lib/reload-page.ts). */
export default function MainLayout() {
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return (
    <div className="flex min-h-screen flex-col">
      <Header themeType={2} />
      <main className="flex-1 pt-header">
        <Outlet key={generation} context={{ reload } satisfies MainLayoutContext} />
      </main>
      <Footer />
      <SideWidgets />
    </div>
  );
}

export function ErrorBoundary({ error }: { error: unknown }) {
  return <LayoutErrorBoundary error={error} />;
}
