import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatCnDateTime as formatDateTime } from '../../components/ui/cn-time.ts';
import { shortAddress } from '../../lib/text.ts';
import { listChainRecords, type ChainRecord as Row } from './api/list-chain-records.ts';
import { eventLabelOf, isZeroAddress } from './events.ts';

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; rows: Row[] };

/**
 * The asset page's chain record: the token's on-chain events,
 * oldest first — event (铸造/转移/授权/成交/撤单 …), from → to (short addresses), time
 * (yyyy-MM-dd HH:mm:ss, Beijing time) and the transaction hash linking to the explorer in a new tab.
 */
export function ChainRecord({ tokenId }: { tokenId: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const ctrl = new AbortController();
    setState({ status: 'loading' });
    void listChainRecords(tokenId, ctrl.signal).then((r) => {
      if (ctrl.signal.aborted) return;
      setState(r.ok && Array.isArray(r.data) ? { status: 'ready', rows: r.data } : { status: 'error' });
    });
    return () => ctrl.abort();
  }, [tokenId, attempt]);

  return (
    <section className="card p-5" data-testid="chain-record" data-token-id={tokenId} data-status={state.status} aria-labelledby="chain-record-title">
      <h2 id="chain-record-title" className="mb-3 text-base text-ink">
        {t('chain.record')}
      </h2>
      {state.status === 'loading' && (
        <p className="flex items-center justify-center gap-2 py-8 text-ink-faint" role="status" data-testid="chain-record-loading">
          <Spinner /> {t('chain.loading')}
        </p>
      )}
      {state.status === 'error' && (
        <div className="py-8 text-center text-ink-faint" data-testid="chain-record-error">
          <p>{t('chain.loadFailed')}</p>
          <button type="button" className="btn-ghost mt-3 h-8" data-testid="chain-record-retry" onClick={() => setAttempt((n) => n + 1)}>
            {t('chain.retry')}
          </button>
        </div>
      )}
      {state.status === 'ready' && state.rows.length === 0 && (
        <p className="py-8 text-center text-ink-faint" data-testid="chain-record-empty">
          {t('chain.empty')}
        </p>
      )}
      {state.status === 'ready' && state.rows.length > 0 && <Records rows={state.rows} />}
    </section>
  );
}

function Records({ rows }: { rows: Row[] }) {
  const { t } = useTranslation();
  const grid = 'sm:grid sm:grid-cols-[5.5rem_minmax(0,1fr)_10.5rem_8.5rem] sm:items-center sm:gap-3';
  return (
    <div role="table" aria-label={t('chain.record')} className="text-sm">
      <div role="row" className={`hidden border-b border-line pb-2 text-xs text-ink-faint ${grid}`}>
        <span role="columnheader">{t('chain.event')}</span>
        <span role="columnheader">{t('chain.fromTo')}</span>
        <span role="columnheader">{t('chain.time')}</span>
        <span role="columnheader">{t('chain.tx')}</span>
      </div>
      {rows.map((r) => {
        const label = eventLabelOf(r);
        return (
          <div role="row" key={`${r.txHash}-${r.event}-${r.from}-${r.to}`} className={`border-b border-line py-2.5 last:border-0 ${grid}`} data-testid="chain-record-row" data-event={label ?? r.event}>
            <span role="cell" className="font-medium text-ink">
              {label ? t(`chain.events.${label}`) : r.event}
            </span>
            <span role="cell" className="block min-w-0 truncate font-mono text-xs text-ink-soft">
              <Addr value={r.from} /> <span aria-hidden>→</span> <Addr value={r.to} />
            </span>
            <span role="cell" className="tabular block text-xs text-ink-faint">
              {formatDateTime(r.time) || '—'}
            </span>
            <span role="cell" className="block font-mono text-xs">
              <a
                href={r.explorerUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="text-brand hover:underline"
                data-testid="chain-record-tx"
                aria-label={t('chain.viewTx', { hash: r.txHash })}
                title={r.txHash}
              >
                {shortAddress(r.txHash, 6, 4)}
              </a>
            </span>
          </div>
        );
      })}
    </div>
  );
}

function Addr({ value }: { value: string }) {
  if (isZeroAddress(value)) return <span className="text-ink-faint">—</span>;
  return <span title={value}>{shortAddress(value)}</span>;
}
