import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { FactList } from '../../../components/ui/fact-list.tsx';
import { Price } from '../../../components/ui/price.tsx';
import { MediaView } from '../../../components/ui/media-view.tsx';
import { RichHtml } from '../../../components/ui/rich-html.tsx';
import { SaleProgress } from '../../../components/ui/sale-progress.tsx';

export interface PreviewRelease {
  name: string;
  cover: string | null;
  /** The artwork's video / 3D model (the cover is its poster). */
  media?: { kind: 'image' | 'video' | 'model'; url: string } | null;
  creatorName: string;
  storyHtml: string;
  supply: number | null;
  priceFen: number | null;
  saleStartAt: number | null;
  holdingDays: number | null;
}

/**
 * The draft as buyers will see it on the release page (/projects/detail/:id) before its sale
 * starts: the same artwork (MediaView), price block, sale progress, facts and story components, with what the draft
 * has so far (— for what is missing).
 */
export function ReleasePreview({ r }: { r: PreviewRelease }) {
  const { t } = useTranslation();
  const supply = r.supply ?? 0;
  return (
    <div className="rounded-card border border-line p-4" data-testid="studio-preview">
      <p className="mb-3 text-xs text-ink-faint">{t('studio.previewHint')}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="card overflow-hidden">
          {r.media ? (
            <MediaView kind={r.media.kind} src={r.media.url} poster={r.cover ?? ''} alt={r.name} width={600} height={600} className="aspect-square w-full bg-night-soft object-cover" />
          ) : r.cover ? (
            <img src={r.cover} alt={r.name} className="aspect-square w-full bg-night-soft object-cover" data-testid="studio-preview-cover" />
          ) : (
            <div className="flex aspect-square w-full items-center justify-center bg-canvas text-sm text-ink-faint">{t('studio.noCover')}</div>
          )}
        </div>
        <div className="flex flex-col">
          <span className="w-max rounded-full bg-brand-soft px-2.5 py-0.5 text-xs text-brand">{t('catalog.status.upcoming')}</span>
          <h2 className="mt-2 text-2xl text-ink" data-testid="studio-preview-name">
            {r.name || t('studio.untitled')}
          </h2>
          <p className="mt-1 text-sm text-ink-soft">{r.creatorName}</p>
          <div className="card mt-4 p-4">
            <p className="text-xs text-ink-faint">{t('catalog.issuePrice')}</p>
            <Price fen={r.priceFen} className="mt-1 block text-2xl font-bold text-brand" testId="studio-preview-price" />
            <div className="mt-3">
              <SaleProgress sold={0} supply={supply} remaining={supply} />
            </div>
          </div>
          <FactList
            className="mt-3"
            rows={[
              [t('catalog.saleStart'), <span className="tabular">{r.saleStartAt ? formatCnDateTime(r.saleStartAt) : '—'}</span>],
              [t('catalog.supplyLabel'), <span className="tabular">{r.supply ?? '—'}</span>],
              [t('catalog.holding'), r.holdingDays ? t('catalog.holdingDays', { count: r.holdingDays }) : t('catalog.none')],
            ]}
          />
        </div>
      </div>
      <section className="mt-4">
        <h3 className="text-base text-ink">{t('catalog.about')}</h3>
        <RichHtml html={r.storyHtml} testId="studio-preview-story" />
      </section>
    </div>
  );
}
