import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Price } from '../../../components/ui/price.tsx';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { GoodsCard } from '../api/types.ts';

/**
 * A listing of the consignment market: artwork, name, release, serial and the asking price; links to /assets/{id}.
 * `level` 2 where the list follows the page's h1 directly (heading order), else 3.
 */
export function MarketCard({ goods: g, eager = false, level = 3 }: { goods: GoodsCard; eager?: boolean; level?: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  const { t } = useTranslation();
  return (
    <Link
      to={`/assets/${g.id}`}
      prefetch="intent"
      className="card group block overflow-hidden transition-shadow hover:shadow-pop"
      data-testid="market-card"
      data-id={g.id}
      data-price={g.salePriceFen ?? ''}
    >
      <div className="relative aspect-square overflow-hidden bg-night-soft">
        <Thumb src={g.image} alt={g.name} width={288} height={288} eager={eager} className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]" />
        <span className="tabular absolute bottom-2 left-2 rounded-full bg-black/55 px-2 py-0.5 text-[11px] text-white">
          #{String(g.serial).padStart(4, '0')} / {g.supply}
        </span>
      </div>
      <div className="p-3.5">
        <H className="truncate text-[15px] text-ink" data-testid="market-card-name">
          {g.name}
        </H>
        <p className="mt-0.5 truncate text-xs text-ink-faint">
          {g.projectName} · {g.creatorName}
        </p>
        <div className="mt-2.5 flex items-end justify-between gap-2">
          <span className="text-xs text-ink-faint">{t('market.askingPrice')}</span>
          <Price fen={g.salePriceFen} className="text-lg font-semibold text-brand" testId="market-card-price" />
        </div>
      </div>
    </Link>
  );
}
