import { Link } from 'react-router';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { NewsCard as News } from '../api/types.ts';

/**
 * News card: cover (16:9), category, title, summary, date. `row` lays it out horizontally (the news
 * list). `date` is formatted by the loader (cn-time.ts on the server: no date code in the home chunk).
 * `level` 2 where the list follows the page's h1 directly (heading order), else 3.
 */
export function NewsCard({ news: n, date, row = false, eager = false, level = 3 }: { news: News; date: string; row?: boolean; eager?: boolean; level?: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <Link
      to={`/news/${n.id}`}
      prefetch="intent"
      className={`card group overflow-hidden transition-shadow hover:shadow-pop ${row ? 'flex flex-col sm:flex-row' : 'block'}`}
      data-testid="news-card"
      data-id={n.id}
    >
      <div className={`aspect-video shrink-0 overflow-hidden bg-night-soft ${row ? 'sm:w-64' : ''}`}>
        <Thumb src={n.cover} alt="" width={row ? 256 : 384} height={row ? 144 : 216} eager={eager} className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]" />
      </div>
      <div className="min-w-0 flex-1 p-4">
        <p className="text-xs text-brand">{n.category}</p>
        <H className="mt-1 line-clamp-2 text-[15px] leading-6 text-ink group-hover:text-brand" data-testid="news-card-title">
          {n.title}
        </H>
        <p className={`mt-2 text-sm text-ink-soft ${row ? 'line-clamp-2' : 'line-clamp-2 hidden sm:block'}`}>{n.summary}</p>
        <p className="tabular mt-2 text-xs text-ink-faint">{date}</p>
      </div>
    </Link>
  );
}
