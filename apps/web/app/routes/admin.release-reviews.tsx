import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { Page } from '@cfx/contract/admin.ts';
import type { DraftState, ReviewDraft } from '@cfx/contract/studio.ts';
import { Pager } from '../components/ui/pager.tsx';
import { RichHtml } from '../components/ui/rich-html.tsx';
import { adminApi, adminData } from '../features/admin/api.ts';
import { ConfirmDialog } from '../features/admin/components/dialogs.tsx';
import { AdminPage, Badge, fen, notify, QueryState, Table, Tabs, td, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';

const PAGE_SIZE = 20;
type Filter = Exclude<DraftState, 'draft'>;
const FILTERS: Filter[] = ['submitted', 'approved', 'rejected'];

/**
 * Release reviews (catalog.edit; docs/admin.md "Release reviews"): the releases creators submitted
 * from their studio, oldest first; approve (the release is created as submitted) or reject with
 * a reason the creator is told. Approved and rejected drafts are listed under their tabs.
 */
export default function AdminReleaseReviews() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const raw = params.get('state') ?? 'submitted';
  const state: Filter = (FILTERS as string[]).includes(raw) ? (raw as Filter) : 'submitted';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: ['admin', 'release-reviews', state, page],
    queryFn: () => adminData<Page<ReviewDraft>>(AdminPaths.releaseReviewsList, { state, pageNum: page, pageSize: PAGE_SIZE }),
  });
  const [dialog, setDialog] = useState<{ kind: 'approve' | 'reject'; draft: ReviewDraft } | null>(null);
  const stateLabel = { submitted: t('releaseReviews.stateSubmitted'), approved: t('releaseReviews.stateApproved'), rejected: t('releaseReviews.stateRejected') };
  const decide = async (kind: 'approve' | 'reject', d: ReviewDraft, reason: string) => {
    const r = await adminApi(kind === 'approve' ? AdminPaths.releaseReviewApprove : AdminPaths.releaseReviewReject, kind === 'approve' ? { id: d.id } : { id: d.id, reason });
    if (!r.ok) return r.message || t('common.loadFailed');
    notify.ok(t(kind === 'approve' ? 'releaseReviews.approved' : 'releaseReviews.rejected'));
    await qc.invalidateQueries({ queryKey: ['admin', 'release-reviews'] });
    return null;
  };
  return (
    <AdminPage title={t('releaseReviews.title')} permission="catalog.edit" testId="admin-release-reviews">
      <p className="mb-4 text-sm text-ink-soft">{t('releaseReviews.intro')}</p>
      <Tabs
        value={state}
        options={FILTERS.map((v) => ({ value: v, label: stateLabel[v] }))}
        onChange={(v) => setParams(new URLSearchParams({ state: v }))}
        testId="admin-release-reviews-state"
      />
      <QueryState q={query} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            <p className="mb-2 text-xs text-ink-faint">{t('common.total', { n: d.total })}</p>
            <Table
              head={[t('releaseReviews.id'), t('releaseReviews.cover'), t('releaseReviews.name'), t('releaseReviews.creator'), t('releaseReviews.supply'), t('releaseReviews.price'), t('releaseReviews.start'), t('releaseReviews.limit'), t('releaseReviews.royalty'), t('releaseReviews.submittedAt'), '']}
              testId="admin-release-reviews-table"
            >
              {d.list.map((x) => (
                <tr key={x.id} data-testid="admin-release-review-row" data-draft-id={x.id}>
                  <td className={`${td} tabular`}>{x.id}</td>
                  <td className={td}>{x.cover ? <img src={x.cover} alt="" className="h-12 w-12 rounded border border-line object-cover" /> : '—'}</td>
                  <td className={td}>
                    <p className="font-medium text-ink">{x.title}</p>
                    <details className="mt-1 text-xs text-ink-soft">
                      <summary className="cursor-pointer">{t('releaseReviews.story')}</summary>
                      <RichHtml html={x.storyHtml} />
                    </details>
                    {x.state === 'rejected' && x.reviewReason && (
                      <p className="mt-1 text-xs text-danger" data-testid="admin-release-review-reason">
                        {t('releaseReviews.reason')}：{x.reviewReason}
                      </p>
                    )}
                  </td>
                  <td className={td}>
                    {x.creatorName}
                    <span className="block text-xs text-ink-faint tabular">{x.creatorAccountId}</span>
                  </td>
                  <td className={`${td} tabular`}>{x.supply ?? '—'}</td>
                  <td className={`${td} tabular`}>{fen(x.priceFen)}</td>
                  <td className={`${td} tabular`}>{when(x.saleStartAt)}</td>
                  <td className={`${td} tabular`}>{x.perIdentityLimit ?? '—'}</td>
                  <td className={`${td} tabular`}>{x.royaltyPermille === null ? '—' : `${x.royaltyPermille / 10}%`}</td>
                  <td className={`${td} tabular`}>{when(x.submittedAt)}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    {x.state === 'submitted' ? (
                      <span className="flex gap-2">
                        <button type="button" className="btn-primary" onClick={() => setDialog({ kind: 'approve', draft: x })} data-testid="admin-release-review-approve">
                          {t('releaseReviews.approve')}
                        </button>
                        <button type="button" className="btn bg-danger text-white hover:opacity-90" onClick={() => setDialog({ kind: 'reject', draft: x })} data-testid="admin-release-review-reject">
                          {t('releaseReviews.reject')}
                        </button>
                      </span>
                    ) : x.projectId ? (
                      <a href={`/projects/detail/${x.projectId}`} target="_blank" rel="noreferrer" className="text-brand hover:underline" data-testid="admin-release-review-project">
                        {t('releaseReviews.viewRelease')}
                      </a>
                    ) : (
                      <Badge tone="bad">{stateLabel[state]}</Badge>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
            <Pager page={page} total={d.total} pageSize={PAGE_SIZE} />
          </>
        )}
      </QueryState>
      {dialog && (
        <ConfirmDialog
          open
          onClose={() => setDialog(null)}
          title={t(dialog.kind === 'approve' ? 'releaseReviews.approveTitle' : 'releaseReviews.rejectTitle')}
          intro={dialog.kind === 'approve' ? t('releaseReviews.approveIntro', { name: dialog.draft.title, start: when(dialog.draft.saleStartAt) }) : t('releaseReviews.rejectIntro')}
          confirmLabel={t(dialog.kind === 'approve' ? 'releaseReviews.approve' : 'releaseReviews.reject')}
          reason={dialog.kind === 'reject'}
          reasonLabel={t('releaseReviews.reason')}
          danger={dialog.kind === 'reject'}
          testId={`admin-release-review-${dialog.kind}-dialog`}
          onConfirm={(reason) => decide(dialog.kind, dialog.draft, reason)}
        />
      )}
    </AdminPage>
  );
}
