import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { EmptyBlock, LoadingBlock } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { followCreator } from '../api/follow-creator.ts';
import { listFeed, listFollowed } from '../api/follows.ts';
import type { FollowedCreator } from '../api/types.ts';
import { MomentList } from './moments.tsx';

const CREATORS_SIZE = 10;
const FEED_SIZE = 10;

function usePageParam(): number {
  const [params] = useSearchParams();
  const n = Number(params.get('page'));
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
}

function LoadError({ onRetry, testId }: { onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="py-12 text-center" data-testid={testId}>
      <p className="text-ink-faint">{t('creators.page.loadError')}</p>
      <button type="button" className="btn-ghost mt-3" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

function NoFollows() {
  const { t } = useTranslation();
  return (
    <div className="py-12 text-center" data-testid="follow-empty">
      <p className="text-ink">{t('creators.page.empty')}</p>
      <p className="mt-2 text-sm text-ink-faint">{t('creators.page.emptyHint')}</p>
      <Link to="/projects" className="btn-ghost mt-5">
        {t('creators.page.browse')}
      </Link>
    </div>
  );
}

function CreatorRow({ c, onUnfollowed }: { c: FollowedCreator; onUnfollowed: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const unfollow = async () => {
    setBusy(true);
    const r = await followCreator(c.id, false);
    setBusy(false);
    if (r.ok) {
      toast.success(t('creators.page.unfollowed'));
      onUnfollowed();
    }
  };
  const href = `/creator/${encodeURIComponent(c.accountId)}`;
  return (
    <li className="flex items-center gap-4 rounded-card border border-line p-4" data-testid="follow-creator" data-account-id={c.accountId}>
      <Link to={href} className="shrink-0">
        <img src={c.avatar} alt="" width={56} height={56} loading="lazy" className="size-14 rounded-full bg-canvas object-cover" />
      </Link>
      <div className="min-w-0 flex-1">
        <Link to={href} className="block truncate font-medium text-ink hover:text-brand" data-testid="follow-creator-name">
          {c.name}
        </Link>
        {c.intro && <p className="mt-0.5 line-clamp-2 text-sm text-ink-soft">{c.intro}</p>}
        <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-ink-faint">
          <span className="tabular">{t('creators.followersCount', { count: c.followerCount })}</span>
          <span className="tabular">{c.lastMomentAt ? t('creators.page.lastMoment', { time: formatCnDateTime(c.lastMomentAt, false) }) : t('creators.page.noMomentYet')}</span>
        </p>
      </div>
      <button type="button" className="btn-ghost shrink-0" onClick={() => void unfollow()} disabled={busy} data-testid="follow-unfollow">
        {t('creators.unfollow')}
      </button>
    </li>
  );
}

/** The creators I follow (with unfollow), paged by ?page=. */
export function FollowedCreators() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const page = usePageParam();
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['follows', page, token],
    queryFn: () => listFollowed({ pageNum: page, pageSize: CREATORS_SIZE }),
    enabled: token !== '',
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['follows'] });
    void client.invalidateQueries({ queryKey: ['follow-feed'] });
  };
  return (
    <div data-testid="follow-creators" data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.list.length ? 'ready' : 'empty'}>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <LoadError onRetry={() => void q.refetch()} testId="follow-error" />
      ) : q.data.list.length === 0 ? (
        <NoFollows />
      ) : (
        <>
          <ul className="space-y-3">
            {q.data.list.map((c) => (
              <CreatorRow key={c.id} c={c} onUnfollowed={refresh} />
            ))}
          </ul>
          <Pager page={page} total={q.data.total} pageSize={CREATORS_SIZE} />
        </>
      )}
    </div>
  );
}

/** Moments of the creators I follow, newest first, paged by ?page=. */
export function FollowFeed() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const page = usePageParam();
  const q = useQuery({
    queryKey: ['follow-feed', page, token],
    queryFn: () => listFeed({ pageNum: page, pageSize: FEED_SIZE }),
    enabled: token !== '',
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  if (q.isPending) return <LoadingBlock label={t('common.loading')} />;
  if (q.isError) return <LoadError onRetry={() => void q.refetch()} testId="follow-error" />;
  return (
    <div data-testid="follow-feed">
      {q.data.total === 0 ? (
        <EmptyBlock label={t('creators.page.feedEmpty')} />
      ) : (
        <>
          <MomentList moments={q.data.list} total={q.data.list.length} loading={false} failed={false} empty={t('creators.page.feedEmpty')} canDelete={() => false} />
          <Pager page={page} total={q.data.total} pageSize={FEED_SIZE} />
        </>
      )}
    </div>
  );
}
