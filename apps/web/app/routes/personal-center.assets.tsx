import { lazy } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { LinkTabs } from '../components/ui/link-tabs.tsx';
import { Seo } from '../components/ui/seo.tsx';
import { CollectionSummary, DigitalAssets, Favourites } from '../features/personal/components/assets.tsx';
import { AssetFlowActions } from '../features/shift/components/asset-flow-actions.tsx';

/** The blind-box dialog (features/boxes) for the asset tiles' actions (features/shift): its own chunk, loaded on first use. */
const OpenBoxDialog = lazy(() => import('../features/boxes/components/open-box-dialog.tsx'));
import { Link } from 'react-router';

const TABS = ['assets', 'favourites'] as const;

/** Personal center: my assets (index, navigation 0) — my collection, digital assets (?status=), favourites (?tab=favourites). */
export default function MyAssets() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const tab = params.get('tab') === 'favourites' ? 'favourites' : 'assets';
  return (
    <div className="space-y-6" data-testid="pc-assets" data-tab={tab}>
      <Seo title={t('pc.nav.assets')} description={t('pages.personalCenter.description')} />
      <CollectionSummary />
      <section className="card p-5">
        <LinkTabs testId="pc-assets-tabs" param="tab" defaultValue="assets" value={tab} label={t('pc.nav.assets')} tabs={TABS.map((v) => ({ value: v, label: t(`personal.tabs.${v}`) }))} />
        <div className="mt-5">{tab === 'assets' ? <DigitalAssets tileActions={(g) => (g.status === 'held' && g.chainStatus === 'minted' ? <AssetFlowActions goods={g} OpenBoxDialog={OpenBoxDialog} /> : null)} /> : <Favourites />}</div>
        {tab === 'assets' && (
          <p className="mt-4 text-right text-sm">
            <Link to="/personal-center/compose" className="text-brand hover:underline" data-testid="pc-compose-link">
              {t('compose.entry')}
            </Link>
          </p>
        )}
      </section>
    </div>
  );
}
