import { Link, useLocation } from 'react-router';

export interface LinkTab {
  value: string;
  label: string;
  count?: number;
}

/**
 * Tabs that are links (`?<param>=value`, the page parameter reset), so each tab is a server-rendered
 * URL. The tab equal to `defaultValue` (if given) has no parameter.
 */
export function LinkTabs({
  tabs,
  value,
  param,
  label,
  testId,
  defaultValue,
}: {
  tabs: LinkTab[];
  value: string;
  param: string;
  label: string;
  testId: string;
  defaultValue?: string;
}) {
  const { pathname, search } = useLocation();
  const href = (v: string) => {
    const q = new URLSearchParams(search);
    q.delete('page');
    if (v === defaultValue) q.delete(param);
    else q.set(param, v);
    const s = q.toString();
    return `${pathname}${s ? `?${s}` : ''}`;
  };
  return (
    <nav aria-label={label} className="flex gap-1 overflow-x-auto border-b border-line" data-testid={testId}>
      {tabs.map((tab) => {
        const active = tab.value === value;
        return (
          <Link
            key={tab.value}
            to={href(tab.value)}
            aria-current={active ? 'page' : undefined}
            data-testid={`${testId}-${tab.value}`}
            data-active={active ? 'true' : 'false'}
            preventScrollReset
            className={`-mb-px whitespace-nowrap border-b-2 px-4 py-2.5 text-[15px] transition-colors ${
              active ? 'border-brand font-semibold text-brand' : 'border-transparent text-ink-soft hover:text-ink'
            }`}
          >
            {tab.label}
            {tab.count !== undefined && <span className="tabular ml-1 text-xs text-ink-faint">{tab.count}</span>}
          </Link>
        );
      })}
    </nav>
  );
}
