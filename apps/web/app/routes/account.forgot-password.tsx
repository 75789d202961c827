import { AccountPage } from '../features/auth/pages/account-page.tsx';

/** /account/forgot-password: the full-page forgot view (features/auth/pages/account-page.tsx); returns to ?redirect= afterwards. */
export default function Page() {
  return <AccountPage view="forgot" />;
}
