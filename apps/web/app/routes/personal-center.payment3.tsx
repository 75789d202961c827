import { PaymentMethodPage } from '../features/payment/components/method-pages.tsx';

/** Personal center: Payment3 (/personal-center/conmponents/Payment3?orderNo=…): pays from the platform balance. */
export default function Page() {
  return <PaymentMethodPage method="balance" />;
}
