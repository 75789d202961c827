import { useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { LinkTabs } from '../components/ui/link-tabs.tsx';
import { Seo } from '../components/ui/seo.tsx';
import { AgreeBidButton, OffShelfButton } from '../features/market/components/market-buttons.tsx';
import { BidList, MySales } from '../features/personal/components/sales-and-bids.tsx';

const TABS = ['on_sale', 'sold', 'closed', 'bids'] as const;
type Tab = (typeof TABS)[number];

/**
 * Personal center: my sale (navigation 2) — listings on sale (off shelf from here), sold (with the
 * proceeds), closed, and counter bids: bids on my collectibles, which I can agree to (?tab=).
 */
export default function MySale() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('tab') ?? 'on_sale';
  const tab: Tab = (TABS as readonly string[]).includes(raw) ? (raw as Tab) : 'on_sale';
  return (
    <section className="card p-5" data-testid="pc-my-sale" data-tab={tab}>
      <Seo title={t('pc.nav.mySale')} description={t('pages.personalCenter.description')} />
      <h1 className="mb-4 text-lg text-ink">{t('pc.nav.mySale')}</h1>
      <LinkTabs testId="my-sale-tabs" param="tab" defaultValue="on_sale" value={tab} label={t('pc.nav.mySale')} tabs={TABS.map((v) => ({ value: v, label: t(`personal.saleTabs.${v}`) }))} />
      <div className="mt-5">
        {tab === 'bids' ? (
          <BidList
            type="received"
            renderActions={(b, refresh) =>
              b.goods ? (
                <AgreeBidButton
                  goods={{ id: b.goodsId, name: b.goods.name, image: b.goods.image, salePriceFen: b.goods.salePriceFen, lastPriceFen: b.goods.lastPriceFen }}
                  bid={{ id: b.id, amountFen: b.amountFen, bidderNickname: b.bidder.nickname }}
                  onDone={refresh}
                />
              ) : null
            }
          />
        ) : (
          <MySales
            status={tab}
            renderActions={(l, refresh) =>
              l.goods ? (
                <OffShelfButton goods={{ id: l.goodsId, name: l.goods.name, image: l.goods.image, salePriceFen: l.priceFen, lastPriceFen: l.goods.lastPriceFen }} onDone={refresh} />
              ) : null
            }
          />
        )}
      </div>
    </section>
  );
}
