import { Outlet } from 'react-router';
import { Footer } from './parts/footer.tsx';
import { Header } from './parts/header.tsx';
import { SideWidgets } from './parts/side-widgets.tsx';
import { LayoutErrorBoundary } from './parts/layout-error.tsx';

/** Home layout: header (theme type 1, transparent over the hero), footer, side index. */
export default function HomeLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <Header themeType={1} />
      <main className="flex-1">
        <Outlet />
      </main>
      <Footer />
      <SideWidgets />
    </div>
  );
}

export function ErrorBoundary({ error }: { error: unknown }) {
  return <LayoutErrorBoundary error={error} />;
}
