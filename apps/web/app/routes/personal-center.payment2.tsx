import { PaymentMethodPage } from '../features/payment/components/method-pages.tsx';

/** Personal center: Payment2 (/personal-center/conmponents/Payment2?orderNo=…): pays in the sandbox cashier (the development provider). */
export default function Page() {
  return <PaymentMethodPage method="sandbox" />;
}
