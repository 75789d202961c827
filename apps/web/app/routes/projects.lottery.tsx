import { Link } from 'react-router';
import { useTranslation } from '../i18n/index.ts';
import type { Route } from './+types/projects.lottery';
import { Breadcrumb } from '../components/ui/breadcrumb.tsx';
import { PageMeta } from '../components/ui/page-meta.tsx';
import { pageOrigin, required, serverApi } from '../features/catalog/api/server-api.server.ts';
import { lotteryProof } from '../features/drops/api/phases.ts';
import { LotteryProofView } from '../features/drops/components/lottery-proof-view.tsx';

/**
 * The public proof of a release's lottery (/projects/lottery/:id, docs/drops.md "Lottery"): seed
 * epoch, its block hash with an explorer link, the algorithm, the entry list and the winners with
 * their hashes, and "recompute in your browser". Data: GET /official/lottery/proof/?projectId=.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const proof = required(await lotteryProof(serverApi(request), params.id));
  return { origin: pageOrigin(request), proof };
}

export default function LotteryProofPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const p = d.proof;
  return (
    <div className="page-width py-8" data-testid="lottery-proof-page" data-id={p.projectId}>
      <PageMeta title={t('phases.proof.pageTitle', { name: p.name })} description={t('pages.lotteryProof.description')} origin={d.origin} />
      <Breadcrumb items={[{ label: t('nav.releases'), to: '/projects' }, { label: p.name, to: `/projects/dropping/${p.projectId}` }, { label: t('pages.lotteryProof.title') }]} />
      <h1 className="mb-6 text-2xl text-ink">{t('phases.proof.pageTitle', { name: p.name })}</h1>
      <LotteryProofView proof={p} />
      <Link to={`/projects/dropping/${p.projectId}`} className="mt-6 inline-block text-sm text-brand hover:underline">
        {t('phases.proof.back')}
      </Link>
    </div>
  );
}
