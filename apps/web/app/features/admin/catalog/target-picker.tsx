import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import type { ContentTarget } from '@cfx/contract/admin-catalog.ts';
import type { RecommendItemTypeValue } from '@cfx/contract/admin-catalog-rules.ts';
import { adminData } from '../api.ts';
import { useAdminT, type AdminKey } from '../i18n.ts';

export const TYPE_LABEL: Record<RecommendItemTypeValue | 'url', AdminKey> = {
  project: 'catalog.typeProject',
  goods: 'catalog.typeGoods',
  news: 'catalog.typeNews',
  creator: 'catalog.typeCreator',
  url: 'catalog.typeUrl',
};

/** Finds a release / collectible / news item / creator by name or id (/content/targets) and picks one. */
export function TargetPicker({ type, onPick, testId }: { type: RecommendItemTypeValue; onPick: (t: ContentTarget) => void; testId: string }) {
  const t = useAdminT();
  const [q, setQ] = useState('');
  const [term, setTerm] = useState<string | null>(null);
  const found = useQuery({
    queryKey: ['admin', 'targets', type, term],
    queryFn: () => adminData<ContentTarget[]>(AdminPaths.contentTargets, { type, q: term ?? '' }),
    enabled: term !== null,
  });
  return (
    <div className="text-sm" data-testid={testId}>
      <div className="flex gap-2">
        <input
          className="field-input h-9"
          value={q}
          placeholder={`${t(TYPE_LABEL[type])} · ${t('releases.searchPlaceholder')}`}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              setTerm(q.trim());
            }
          }}
          data-testid={`${testId}-q`}
        />
        <button type="button" className="btn-ghost h-9 shrink-0 whitespace-nowrap" onClick={() => setTerm(q.trim())} data-testid={`${testId}-search`}>
          {t('catalog.search')}
        </button>
      </div>
      {term !== null && found.data && (
        <ul className="mt-2 max-h-56 divide-y divide-line overflow-y-auto rounded border border-line" data-testid={`${testId}-results`}>
          {found.data.length === 0 && <li className="px-3 py-2 text-ink-faint">{t('catalog.noMatch')}</li>}
          {found.data.map((x) => (
            <li key={x.id}>
              <button
                type="button"
                className="flex w-full items-center justify-between gap-3 px-3 py-2 text-left hover:bg-canvas"
                onClick={() => {
                  onPick(x);
                  setTerm(null);
                  setQ('');
                }}
                data-testid={`${testId}-option`}
                data-id={x.id}
              >
                <span className="min-w-0 truncate">
                  #{x.id} {x.label}
                </span>
                <span className="shrink-0 text-xs text-ink-faint">{x.sub}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
