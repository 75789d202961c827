import type { Lang } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';

const LABELS = {
  on_sale: { zh: '在售', en: 'On sale' },
  held: { zh: '持有中', en: 'Held' },
  all: { zh: '全部', en: 'All' },
  default: { zh: '最新上架', en: 'Newest listings' },
  priceAsc: { zh: '价格从低到高', en: 'Price: low to high' },
  priceDesc: { zh: '价格从高到低', en: 'Price: high to low' },
  serialAsc: { zh: '编号', en: 'Serial number' },
} as const;
const PRICE_RANGES: { zh: string; en: string; minFen: number; maxFen: number | null }[] = [
  { zh: '￥100以下', en: 'Under ￥100', minFen: 0, maxFen: 10_000 },
  { zh: '￥100-500', en: '￥100-500', minFen: 10_000, maxFen: 50_000 },
  { zh: '￥500-2000', en: '￥500-2,000', minFen: 50_000, maxFen: 200_000 },
  { zh: '￥2000以上', en: 'Over ￥2,000', minFen: 200_000, maxFen: null },
];

/** Choices of the market page's filters: categories and releases from the catalog, statuses, sorts, price ranges. */
export async function getFilterMeta(ctx: AppContext, lang: Lang) {
  const k = ctx.db.kysely;
  const [cats, projects] = await Promise.all([
    k.selectFrom('projects').select('category').distinct().orderBy('category').execute(),
    k.selectFrom('projects').select(['id', 'name']).orderBy('sale_start_at', 'desc').orderBy('id', 'desc').limit(1000).execute(),
  ]);
  const opt = (value: keyof typeof LABELS) => ({ value, label: LABELS[value][lang] });
  return {
    categories: cats.map((c) => ({ value: c.category, label: c.category })),
    projects: projects.map((p) => ({ id: Number(p.id), name: p.name })),
    statuses: [opt('on_sale'), opt('all')],
    sorts: [opt('default'), opt('priceAsc'), opt('priceDesc'), opt('serialAsc')],
    priceRanges: PRICE_RANGES.map((r) => ({ label: r[lang], minFen: r.minFen, maxFen: r.maxFen })),
  };
}
