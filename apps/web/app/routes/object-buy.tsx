import { useTranslation } from '../i18n/index.ts';
import { QueryProvider } from '../components/query-provider.tsx';
import { Seo } from '../components/ui/seo.tsx';
import { BuyView } from '../features/orders/components/buy-view.tsx';

/** Buy flow (/object-buy?goodsId=…[&orderNo=…]): reserve the listing (createOrder), show the order and its countdown, then pay. */
export default function ObjectBuy() {
  const { t } = useTranslation();
  return (
    <QueryProvider>
      <Seo title={t('pages.objectBuy.title')} description={t('pages.objectBuy.description')} />
      <BuyView />
    </QueryProvider>
  );
}
