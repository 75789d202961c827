import { Link } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/projects.box';
import { Breadcrumb } from '../components/ui/breadcrumb.tsx';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { getBoxInfo } from '../lib/goods-flow/calls.ts';
import { BoxProofView } from '../features/boxes/components/box-proof-view.tsx';

/**
 * A blind-box release's odds and draw proof (/projects/box/:id, docs/drops.md "Blind boxes"): the
 * kinds with exact counts, the commitment and reveal epoch published before the sale, the reveal
 * (seed, block hash, assignment hash) and "recompute in your browser". A release that is not a box
 * release is a 404. Data: GET /goods/v1/box/info/?projectId=.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const info = required(await getBoxInfo(serverApi(request), params.id ?? ''));
  return { origin: pageOrigin(request), info };
}

export default function BoxProofPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const info = d.info;
  return (
    <div className="page-width py-8" data-testid="box-proof-page" data-id={info.projectId}>
      <PageMeta title={t('boxes.proof.pageTitle', { name: info.name })} description={t('boxes.proof.pageDescription')} origin={d.origin} />
      <Breadcrumb items={[{ label: t('nav.releases'), to: '/projects' }, { label: info.name, to: `/projects/detail/${info.projectId}` }, { label: t('boxes.proof.crumb') }]} />
      <h1 className="mb-6 text-2xl text-ink">{t('boxes.proof.pageTitle', { name: info.name })}</h1>
      <BoxProofView info={info} />
      <Link to={`/projects/detail/${info.projectId}`} className="mt-6 inline-block text-sm text-brand hover:underline">
        {t('boxes.proof.back')}
      </Link>
    </div>
  );
}
