import { PaymentMethodPage } from '../features/payment/components/method-pages.tsx';

/** Personal center: PaymentCard (/personal-center/conmponents/PaymentCard): bank-card payment is not offered; links to the other methods. */
export default function Page() {
  return <PaymentMethodPage method="card" />;
}
