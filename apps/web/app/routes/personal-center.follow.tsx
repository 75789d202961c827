import { useSearchParams } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import { LinkTabs } from '../components/ui/link-tabs.tsx';
import { Seo } from '../components/ui/seo.tsx';
import { FollowedCreators, FollowFeed } from '../features/creators/components/follow-page.tsx';

const TABS = ['creators', 'moments'] as const;
type Tab = (typeof TABS)[number];

/**
 * Personal center: follow (navigation 6) — the creators I follow (unfollow from here) and the
 * moments they post, newest first (?tab=moments); both paged by ?page=.
 */
export default function Follow() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('tab') ?? 'creators';
  const tab: Tab = (TABS as readonly string[]).includes(raw) ? (raw as Tab) : 'creators';
  return (
    <section className="card p-5" data-testid="pc-follow" data-tab={tab}>
      <Seo title={t('pc.nav.follow')} description={t('pages.personalCenter.description')} />
      <h1 className="mb-4 text-lg text-ink">{t('pc.nav.follow')}</h1>
      <LinkTabs testId="follow-tabs" param="tab" defaultValue="creators" value={tab} label={t('pc.nav.follow')} tabs={TABS.map((v) => ({ value: v, label: t(`creators.page.tabs.${v}`) }))} />
      <div className="mt-5">{tab === 'moments' ? <FollowFeed /> : <FollowedCreators />}</div>
    </section>
  );
}
