import { PaymentMethodPage } from '../features/payment/components/method-pages.tsx';

/** Personal center: Alipay (/personal-center/conmponents/alipay?orderNo=…): starts an Alipay payment and leaves for Alipay's page; says so when Alipay is not configured. */
export default function Page() {
  return <PaymentMethodPage method="alipay" />;
}
