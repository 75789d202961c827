import { Outlet } from 'react-router';
import { Header } from './parts/header.tsx';
import { LayoutErrorBoundary } from './parts/layout-error.tsx';

/** Nav layout: header only. */
export default function NavLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <Header themeType={2} />
      <main className="flex-1 pt-header">
        <Outlet />
      </main>
    </div>
  );
}

export function ErrorBoundary({ error }: { error: unknown }) {
  return <LayoutErrorBoundary error={error} />;
}
