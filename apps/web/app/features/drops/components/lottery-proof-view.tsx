import { useMemo, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import type { LotteryProof } from '../api/types.ts';
import { recomputeProof, type RecomputeResult } from '../recompute.ts';
import { seedHashForRecompute, type BlockCheck } from '../../../components/chain-proof/block-check.ts';
import { SeedBlockCheck } from '../../../components/chain-proof/seed-block-check.tsx';

/** Entries shown before "show all" (a large list renders on demand). */
const FIRST_ROWS = 200;

/**
 * The public proof of a lottery (/projects/lottery/:id, docs/drops.md "Lottery"): the seed epoch
 * and its block hash (an explorer link on mainnet / testnet), the live check of that block read
 * through the server (SeedBlockCheck), the algorithm (text and code), the frozen entry list (entry
 * numbers + masked account ids) with its hash, the winners with their hash, and a button that
 * recomputes the draw in this browser — from the hash read from the chain — with the same code the
 * server used (packages/protocol/src/lottery-draw.ts) and says whether it matches.
 */
export function LotteryProofView({ proof }: { proof: LotteryProof }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const [result, setResult] = useState<RecomputeResult | 'running' | null>(null);
  const [blockCheck, setBlockCheck] = useState<BlockCheck>({ state: 'loading' });
  const winners = useMemo(() => new Set(proof.winners), [proof.winners]);
  const rows = all ? proof.entries : proof.entries.slice(0, FIRST_ROWS);
  const drawn = proof.status === 'drawn';

  const recompute = async () => {
    setResult('running');
    setResult(await recomputeProof({ ...proof, blockHash: proof.blockHash ? seedHashForRecompute(proof.blockHash, blockCheck) : null }));
  };

  return (
    <div className="space-y-6" data-testid="lottery-proof" data-status={proof.status}>
      <section className="card space-y-3 p-6">
        <Fact label={t('phases.proof.statusLabel')} value={t(`phases.proof.status.${proof.status}`)} testId="proof-status" />
        <Fact label={t('phases.proof.seedEpoch')} value={String(proof.drawEpoch)} testId="proof-epoch" mono />
        <div>
          <p className="text-sm text-ink-faint">{t('phases.proof.blockHash')}</p>
          {proof.blockHash ? (
            <p className="mt-1 break-all font-mono text-sm text-ink" data-testid="proof-block-hash">
              {proof.blockHash}{' '}
              {proof.blockUrl && (
                <a href={proof.blockUrl} target="_blank" rel="noreferrer noopener" className="whitespace-nowrap font-sans text-brand hover:underline" data-testid="proof-explorer">
                  {t('phases.proof.viewOnExplorer')}
                </a>
              )}
            </p>
          ) : (
            <p className="mt-1 text-sm text-ink-soft">{t('phases.proof.notDrawn', { epoch: proof.drawEpoch })}</p>
          )}
        </div>
        {drawn && proof.blockHash && <SeedBlockCheck epoch={proof.drawEpoch} blockHash={proof.blockHash} onCheck={setBlockCheck} />}
        <Fact label={t('phases.proof.winnersCount')} value={String(proof.winnersCount)} />
        {proof.signupStartAt !== null && <Fact label={t('phases.proof.signupWindow')} value={`${formatCnDateTime(proof.signupStartAt)} – ${formatCnDateTime(proof.signupEndAt)}`} />}
        {proof.closedAt !== null ? (
          <p className="text-sm text-ink-soft" data-testid="proof-frozen">
            {proof.closedEpoch !== null
              ? t('phases.proof.frozen', { time: formatCnDateTime(proof.closedAt), epoch: proof.closedEpoch })
              : t('phases.proof.frozenNoChain', { time: formatCnDateTime(proof.closedAt) })}
          </p>
        ) : (
          <p className="text-sm text-ink-soft">{t('phases.proof.notFrozen')}</p>
        )}
        {drawn && proof.drawnAt !== null && <Fact label={t('phases.proof.drawnAt')} value={formatCnDateTime(proof.drawnAt)} />}
      </section>

      <section className="card space-y-3 p-6">
        <h2 className="text-lg font-semibold text-ink">
          {t('phases.proof.algorithm')} <span className="font-mono text-sm text-ink-soft" data-testid="proof-algorithm">{proof.algorithm}</span>
        </h2>
        <p className="text-sm leading-6 text-ink-soft">{t('phases.proof.algorithmText', { winners: proof.winnersCount })}</p>
        <pre className="overflow-x-auto rounded-control bg-night p-4 text-xs leading-5 text-white" data-testid="proof-pseudocode">
          {proof.pseudocode}
        </pre>
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn-primary h-10 px-5 disabled:opacity-60" disabled={!drawn || result === 'running'} onClick={() => void recompute()} data-testid="proof-recompute">
            {result === 'running' ? t('phases.proof.recomputing') : t('phases.proof.recompute')}
          </button>
          {!drawn && <span className="text-sm text-ink-faint">{t('phases.proof.recomputeAfterDraw')}</span>}
          {drawn && (blockCheck.state === 'match' || blockCheck.state === 'mismatch') && <span className="text-xs text-ink-faint">{t('proofBlock.recomputeFromChain')}</span>}
          {result && result !== 'running' && (
            <span
              className={`rounded-control px-3 py-2 text-sm ${result.ok ? 'bg-success/10 text-success' : 'bg-danger/10 text-danger'}`}
              data-testid="proof-result"
              data-result={result.ok ? 'match' : 'mismatch'}
              role="status"
            >
              {result.ok ? t('phases.proof.matches') : !result.entriesOk ? t('phases.proof.entriesMismatch') : t('phases.proof.mismatch')}
            </span>
          )}
        </div>
        {result && result !== 'running' && result.winners && (
          <p className="break-all font-mono text-xs text-ink-soft" data-testid="proof-recomputed">
            {t('phases.proof.recomputed', { winners: result.winners.join(', ') || '—', hash: result.winnersHash ?? '' })}
          </p>
        )}
      </section>

      <section className="card space-y-3 p-6">
        <h2 className="text-lg font-semibold text-ink">{t('phases.proof.winners', { count: proof.winners.length })}</h2>
        <p className="break-all font-mono text-sm text-ink" data-testid="proof-winners">
          {drawn ? proof.winners.join(', ') || '—' : t('phases.proof.notDrawnShort')}
        </p>
        {proof.winnersHash && <Fact label={t('phases.proof.winnersHash')} value={proof.winnersHash} mono testId="proof-winners-hash" />}
      </section>

      <section className="card space-y-3 p-6">
        <h2 className="text-lg font-semibold text-ink">{t('phases.proof.entries', { count: proof.entries.length })}</h2>
        {proof.status === 'open' && <p className="text-sm text-ink-soft">{t('phases.proof.notFrozen')}</p>}
        {proof.entriesHash && <Fact label={t('phases.proof.entriesHash')} value={proof.entriesHash} mono testId="proof-entries-hash" />}
        {proof.entries.length > 0 && (
          <table className="w-full text-left text-sm" data-testid="proof-entries">
            <thead className="text-ink-faint">
              <tr>
                <th className="py-1 pr-4 font-normal">{t('phases.proof.entryNo')}</th>
                <th className="py-1 pr-4 font-normal">{t('phases.proof.account')}</th>
                <th className="py-1 font-normal">{t('phases.proof.result')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m, i) => (
                <tr key={i} className="border-t border-line" data-testid="proof-entry" data-entry-no={i + 1} data-won={winners.has(i + 1) ? '1' : '0'}>
                  <td className="tabular py-1 pr-4">{i + 1}</td>
                  <td className="py-1 pr-4 font-mono">{m}</td>
                  <td className="py-1">{drawn ? (winners.has(i + 1) ? <span className="text-success">{t('phases.proof.wonMark')}</span> : '—') : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {!all && proof.entries.length > FIRST_ROWS && (
          <button type="button" className="text-sm text-brand hover:underline" onClick={() => setAll(true)}>
            {t('phases.proof.showAll', { count: proof.entries.length })}
          </button>
        )}
      </section>
    </div>
  );
}

function Fact({ label, value, mono = false, testId }: { label: string; value: string; mono?: boolean; testId?: string }) {
  return (
    <div>
      <p className="text-sm text-ink-faint">{label}</p>
      <p className={`mt-1 break-all text-sm text-ink ${mono ? 'font-mono' : ''}`} data-testid={testId}>
        {value}
      </p>
    </div>
  );
}
