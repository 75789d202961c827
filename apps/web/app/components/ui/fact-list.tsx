import type { ReactNode } from 'react';

/** Label/value rows (a definition list) for detail pages. Rows with an empty value are left out. */
export function FactList({ rows, className = '' }: { rows: Array<[string, ReactNode]>; className?: string }) {
  return (
    <dl className={`divide-y divide-line text-sm ${className}`}>
      {rows
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([label, value]) => (
          <div key={label} className="flex items-start justify-between gap-4 py-2.5">
            <dt className="shrink-0 text-ink-faint">{label}</dt>
            <dd className="min-w-0 break-all text-right text-ink">{value}</dd>
          </div>
        ))}
    </dl>
  );
}
