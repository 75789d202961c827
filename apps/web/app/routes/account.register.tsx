import { AccountPage } from '../features/auth/pages/account-page.tsx';

/** /account/register: the full-page register view (features/auth/pages/account-page.tsx); returns to ?redirect= afterwards. */
export default function Page() {
  return <AccountPage view="register" />;
}
