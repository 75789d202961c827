import { useTranslation } from '../i18n/index.ts';
import { QueryProvider } from '../components/query-provider.tsx';
import { Seo } from '../components/ui/seo.tsx';
import { BuyView } from '../features/orders/components/buy-view.tsx';

/** The buy flow as a compact card (/object-buy/conponents/card?goodsId=… or ?orderNo=…). */
export default function ObjectBuyCard() {
  const { t } = useTranslation();
  return (
    <QueryProvider>
      <Seo title={t('pages.objectBuyCard.title')} description={t('pages.objectBuyCard.description')} />
      <div className="page-width">
        <BuyView compact />
      </div>
    </QueryProvider>
  );
}
