import { data } from 'react-router';
import type { Route } from './+types/not-found';
import { ErrorPage } from '../components/ui/error-page.tsx';

/** Catch-all: a real HTTP 404 (thrown from the loader) rendered inside the main layout. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
