import { useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../i18n/index.ts';
import { Seo } from '../components/ui/seo.tsx';
import { LoadingBlock } from '../components/ui/spinner.tsx';
import { useUserStore } from '../stores/user.ts';
import { listInviteRecords } from '../features/share/api/list-invite-records.ts';
import { InviteRecords } from '../features/share/components/invite-records.tsx';
import { InviteShare } from '../features/share/components/invite-share.tsx';

const PAGE_SIZE = 10;

/** Invite friends (navigation index 7): my code, link and QR code, and the people I invited (?page=). */
export default function Invite() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const [params] = useSearchParams();
  const page = Math.max(1, Math.min(10_000, Number(params.get('page')) || 1));
  const q = useQuery({
    queryKey: ['invite-records', token, page],
    queryFn: () => listInviteRecords(page, PAGE_SIZE),
    enabled: token !== '',
    placeholderData: keepPreviousData,
  });
  return (
    <section className="card space-y-8 p-6" data-testid="invite-page">
      <Seo title={t('invite.title')} description={t('pages.personalCenter.description')} />
      <h1 className="text-lg text-ink">{t('invite.title')}</h1>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <p className="py-6 text-center text-sm text-ink-faint" data-testid="invite-error">
          {t('common.loadFailed')}{' '}
          <button type="button" className="text-brand hover:underline" onClick={() => void q.refetch()}>
            {t('common.retry')}
          </button>
        </p>
      ) : (
        <>
          <InviteShare code={q.data.inviteCode} invitedCount={q.data.invitedCount} realnameCount={q.data.realnameCount} />
          <InviteRecords data={q.data} page={page} pageSize={PAGE_SIZE} />
        </>
      )}
    </section>
  );
}
