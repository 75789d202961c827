import { PaymentMethodPage } from '../features/payment/components/method-pages.tsx';

/** Personal center: PaymentCard (/personal-center/conmponents/PaymentCard): the bound cards usable for payment; with ?orderNo= pays that order with one (the bank's SMS code). */
export default function Page() {
  return <PaymentMethodPage method="card" />;
}
