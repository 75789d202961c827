import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../stores/toast.ts';
import { deleteMoment } from '../api/own-creator.ts';
import type { FeedMoment, Moment, MomentImage } from '../api/types.ts';

/** The picture viewer is its own chunk, loaded on the first click on a picture. */
const Lightbox = lazy(() => import('./lightbox.tsx'));

/**
 * A moment's pictures: one picture in its own proportions (at most 360 px wide or tall), several in
 * a 3-column grid of squares. Width and height come from the server, so nothing shifts while they
 * load. A click opens the viewer at that picture.
 */
export function ImageGrid({ images, onOpen }: { images: MomentImage[]; onOpen: (index: number) => void }) {
  const { t } = useTranslation();
  if (!images.length) return null;
  if (images.length === 1) {
    const img = images[0]!;
    const scale = Math.min(1, 360 / Math.max(img.width, img.height, 1));
    return (
      <button type="button" onClick={() => onOpen(0)} className="mt-3 block overflow-hidden rounded-control bg-canvas" data-testid="moment-image">
        <img src={img.url} alt={t('creators.imageAlt', { n: 1 })} width={Math.round(img.width * scale)} height={Math.round(img.height * scale)} loading="lazy" decoding="async" className="block max-w-full object-cover" />
      </button>
    );
  }
  return (
    <ul className="mt-3 grid max-w-[420px] grid-cols-3 gap-1.5">
      {images.map((img, i) => (
        <li key={img.url}>
          <button type="button" onClick={() => onOpen(i)} className="block aspect-square w-full overflow-hidden rounded-control bg-canvas" data-testid="moment-image">
            <img src={img.url} alt={t('creators.imageAlt', { n: i + 1 })} width={136} height={136} loading="lazy" decoding="async" className="size-full object-cover" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Delete with a confirmation in place (no extra dialog code on the page). */
function DeleteMoment({ id, onDeleted }: { id: number; onDeleted: (id: number) => void }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} className="text-xs text-ink-faint hover:text-danger" data-testid="moment-delete">
        {t('creators.delete')}
      </button>
    );
  }
  const confirm = async () => {
    setBusy(true);
    const r = await deleteMoment(id);
    setBusy(false);
    if (r.ok) {
      toast.success(t('creators.deleted'));
      onDeleted(id);
    } else setAsking(false);
  };
  return (
    <span role="alertdialog" aria-label={t('creators.deleteConfirm')} className="flex flex-wrap items-center gap-2 text-xs" data-testid="moment-delete-confirm">
      <span className="text-ink-soft">{t('creators.deleteConfirm')}</span>
      <button type="button" onClick={() => void confirm()} disabled={busy} className="rounded bg-danger px-2 py-1 text-white disabled:opacity-60" data-testid="moment-delete-yes">
        {busy ? t('creators.deleting') : t('creators.delete')}
      </button>
      <button type="button" onClick={() => setAsking(false)} disabled={busy} className="rounded border border-line px-2 py-1 text-ink-soft" data-testid="moment-delete-no">
        {t('common.cancel')}
      </button>
    </span>
  );
}

/**
 * One moment: (in the feed) its creator, the time, the server-sanitised body (plain-text newlines
 * kept: pre-wrap), the pictures, and for the creator a delete button.
 */
export function MomentCard({
  moment,
  creator,
  canDelete,
  onDeleted,
}: {
  moment: Moment | FeedMoment;
  creator?: FeedMoment['creator'];
  canDelete: boolean;
  onDeleted?: (id: number) => void;
}) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <li className="border-b border-line py-5 last:border-b-0" data-testid="moment-item" data-id={moment.id}>
      <div className="flex items-center gap-3">
        {creator && (
          <Link to={`/creator/${encodeURIComponent(creator.accountId)}`} className="flex min-w-0 items-center gap-2 hover:text-brand" data-testid="moment-creator">
            <img src={creator.avatar} alt="" width={32} height={32} loading="lazy" className="size-8 shrink-0 rounded-full bg-canvas object-cover" />
            <span className="truncate text-sm font-medium text-ink">{creator.name}</span>
          </Link>
        )}
        <time className="tabular text-xs text-ink-faint" dateTime={new Date(moment.createdAt).toISOString()}>
          {formatCnDateTime(moment.createdAt, false)}
        </time>
        <span className="flex-1" />
        {canDelete && onDeleted && <DeleteMoment id={moment.id} onDeleted={onDeleted} />}
      </div>
      {moment.contentHtml && (
        <div
          className="mt-2 whitespace-pre-wrap break-words text-[15px] leading-7 text-ink [&_a]:text-brand [&_a]:underline [&_p]:my-1"
          data-testid="moment-text"
          dangerouslySetInnerHTML={{ __html: moment.contentHtml }}
        />
      )}
      <ImageGrid images={moment.images} onOpen={setOpen} />
      {open !== null && (
        <Suspense fallback={null}>
          <Lightbox images={moment.images} index={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </li>
  );
}

/** A list of moments with its loading, empty and "load more" states. */
export function MomentList({
  moments,
  total,
  loading,
  failed,
  empty,
  canDelete,
  onDeleted,
  onMore,
  onRetry,
  header,
}: {
  moments: (Moment | FeedMoment)[];
  total: number;
  loading: boolean;
  failed: boolean;
  empty: string;
  canDelete: (m: Moment) => boolean;
  onDeleted?: (id: number) => void;
  onMore?: () => void;
  onRetry?: () => void;
  header?: ReactNode;
}) {
  const { t } = useTranslation();
  const more = moments.length < total;
  return (
    <div data-testid="moment-list" data-count={moments.length} data-total={total}>
      {header}
      {moments.length === 0 && !loading && !failed ? (
        <p className="py-12 text-center text-ink-faint" data-testid="moments-empty">
          {empty}
        </p>
      ) : (
        <ul>
          {moments.map((m) => (
            <MomentCard key={m.id} moment={m} creator={'creator' in m ? m.creator : undefined} canDelete={canDelete(m)} onDeleted={onDeleted} />
          ))}
        </ul>
      )}
      <div className="mt-4 flex justify-center">
        {loading ? (
          <span className="flex items-center gap-2 text-sm text-ink-faint" role="status" data-testid="moments-loading">
            <Spinner /> {t('creators.loadingMore')}
          </span>
        ) : failed ? (
          <button type="button" onClick={onRetry} className="btn-ghost" data-testid="moments-retry">
            {t('creators.page.loadError')} · {t('common.retry')}
          </button>
        ) : more && onMore ? (
          <button type="button" onClick={onMore} className="btn-ghost" data-testid="moments-more">
            {t('creators.loadMore')}
          </button>
        ) : onMore && moments.length > 0 ? (
          <span className="text-xs text-ink-faint">{t('creators.allLoaded')}</span>
        ) : null}
      </div>
    </div>
  );
}
