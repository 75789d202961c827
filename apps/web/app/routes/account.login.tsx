import { AccountPage } from '../features/auth/pages/account-page.tsx';

/** /account/login: the full-page login view (features/auth/pages/account-page.tsx); returns to ?redirect= afterwards. */
export default function Page() {
  return <AccountPage view="login" />;
}
