import { redirect } from 'react-router';

/** `/assets` exactly redirects to `/`; `/assets/:id` is the collectible page. */
export function loader() {
  throw redirect('/');
}

export default function AssetsRedirect() {
  return null;
}
