/**
 * A box release's public odds and draw proof (/projects/box/:id, docs/drops.md "Blind boxes"): the
 * kinds with their exact counts and odds, the commitment sha256(serverSeed) and the reveal epoch
 * fixed before the sale, and after the reveal the seed, the epoch's block hash with its live check
 * read through the server (SeedBlockCheck), the assignment hash and a button that recomputes the
 * draw in this browser — from the hash read from the chain — with the server's own code
 * (packages/protocol/src/box-draw.ts) and says whether it matches.
 */
import { useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { BoxInfo } from '../../../lib/goods-flow/types.ts';
import { oddsText } from '../odds.ts';
import { seedHashForRecompute, type BlockCheck } from '../../../components/chain-proof/block-check.ts';
import { SeedBlockCheck } from '../../../components/chain-proof/seed-block-check.tsx';

type Recomputed = { commitmentOk: boolean; assignmentOk: boolean; assignment: number[] | null };

/** Serials listed per kind after a recompute (the rest is counted). */
const SERIALS_SHOWN = 30;

export function BoxProofView({ info }: { info: BoxInfo }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<Recomputed | 'running' | null>(null);
  const [blockCheck, setBlockCheck] = useState<BlockCheck>({ state: 'loading' });
  const revealed = info.status === 'revealed' && info.reveal;

  const recompute = async () => {
    if (!info.reveal) return;
    setResult('running');
    // The same code the server ran (loaded on demand: the page itself does not need the hashing).
    const { verifyBoxProof } = await import('@cfx/protocol/box-draw.ts');
    const r = info.reveal;
    setResult(verifyBoxProof({ counts: info.kinds.map((k) => k.count), commitment: info.commitment, serverSeed: r.serverSeed, blockHash: seedHashForRecompute(r.blockHash, blockCheck), assignmentHash: r.assignmentHash }));
  };

  return (
    <div className="space-y-6" data-testid="box-proof" data-status={info.status}>
      <section className="card p-6">
        <h2 className="mb-4 text-lg font-semibold text-ink">{t('boxes.proof.odds')}</h2>
        <table className="w-full text-left text-sm" data-testid="box-odds">
          <thead className="text-ink-faint">
            <tr>
              <th className="py-1 pr-4 font-normal">{t('boxes.proof.kind')}</th>
              <th className="py-1 pr-4 font-normal">{t('boxes.proof.rarity')}</th>
              <th className="py-1 pr-4 text-right font-normal">{t('boxes.proof.count')}</th>
              <th className="py-1 text-right font-normal">{t('boxes.proof.probability')}</th>
            </tr>
          </thead>
          <tbody>
            {info.kinds.map((k) => (
              <tr key={k.index} className="border-t border-line" data-testid="box-kind" data-index={k.index} data-count={k.count}>
                <td className="py-2 pr-4">
                  <span className="flex items-center gap-2">
                    <Thumb src={k.image} alt="" width={32} height={32} className="size-8 rounded bg-night-soft object-cover" />
                    {k.name}
                  </span>
                </td>
                <td className="py-2 pr-4">{k.rarity}</td>
                <td className="tabular py-2 pr-4 text-right">{k.count}</td>
                <td className="tabular py-2 text-right">{oddsText(k.count, info.supply)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-3 text-xs text-ink-faint">{t('boxes.proof.exact', { supply: info.supply })}</p>
      </section>

      <section className="card space-y-3 p-6">
        <h2 className="text-lg font-semibold text-ink">{t('boxes.proof.commitTitle')}</h2>
        <Fact label={t('boxes.proof.status')} value={t(`boxes.proof.statuses.${info.status}`)} testId="box-proof-status" />
        <Fact label={t('boxes.proof.commitment')} value={info.commitment} mono testId="box-commitment" />
        <Fact
          label={t('boxes.proof.revealEpoch')}
          value={info.currentEpoch === null ? String(info.revealEpoch) : t('boxes.proof.epochNow', { epoch: info.revealEpoch, now: info.currentEpoch })}
          testId="box-reveal-epoch"
        />
        {!revealed && <p className="text-sm text-ink-soft">{info.saleOver ? t('boxes.proof.waitingEpoch') : t('boxes.proof.waitingSale')}</p>}
        {revealed && info.reveal && (
          <>
            <Fact label={t('boxes.proof.serverSeed')} value={info.reveal.serverSeed} mono testId="box-server-seed" />
            <Fact label={t('boxes.proof.blockHash')} value={info.reveal.blockHash} mono testId="box-block-hash" />
            <SeedBlockCheck epoch={info.revealEpoch} blockHash={info.reveal.blockHash} onCheck={setBlockCheck} />
            <Fact label={t('boxes.proof.seed')} value={info.reveal.seed} mono />
            <Fact label={t('boxes.proof.assignmentHash')} value={info.reveal.assignmentHash} mono testId="box-assignment-hash" />
            <Fact label={t('boxes.proof.revealedAt')} value={formatCnDateTime(info.reveal.revealedAt)} />
          </>
        )}
      </section>

      <section className="card space-y-3 p-6">
        <h2 className="text-lg font-semibold text-ink">
          {t('boxes.proof.algorithm')} <span className="font-mono text-sm text-ink-soft">{info.algorithm}</span>
        </h2>
        <p className="text-sm leading-6 text-ink-soft">{t('boxes.proof.algorithmText')}</p>
        <pre className="overflow-x-auto rounded-control bg-night p-4 text-xs leading-5 text-white">{PSEUDOCODE}</pre>
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn-primary h-10 px-5 disabled:opacity-60" disabled={!revealed || result === 'running'} onClick={() => void recompute()} data-testid="box-recompute">
            {result === 'running' ? t('boxes.proof.recomputing') : t('boxes.proof.recompute')}
          </button>
          {!revealed && <span className="text-sm text-ink-faint">{t('boxes.proof.recomputeAfter')}</span>}
          {revealed && (blockCheck.state === 'match' || blockCheck.state === 'mismatch') && <span className="text-xs text-ink-faint">{t('proofBlock.recomputeFromChain')}</span>}
          {result && result !== 'running' && (
            <span
              className={`rounded-control px-3 py-2 text-sm ${result.commitmentOk && result.assignmentOk ? 'bg-success/10 text-success' : 'bg-danger/10 text-danger'}`}
              role="status"
              data-testid="box-recompute-result"
              data-result={result.commitmentOk && result.assignmentOk ? 'match' : 'mismatch'}
            >
              {!result.commitmentOk ? t('boxes.proof.commitmentMismatch') : result.assignmentOk ? t('boxes.proof.matches') : t('boxes.proof.mismatch')}
            </span>
          )}
        </div>
        {result && result !== 'running' && result.assignment && (
          <div className="space-y-2 text-sm" data-testid="box-recomputed">
            {info.kinds.map((k) => {
              const serials = result.assignment!.flatMap((kind, i) => (kind === k.index ? [i + 1] : []));
              return (
                <p key={k.index} className="text-ink-soft">
                  <span className="font-medium text-ink">{k.name}</span> · {t('boxes.proof.serials', { n: serials.length })}{' '}
                  <span className="font-mono text-xs">
                    {serials.slice(0, SERIALS_SHOWN).map((s) => `#${s}`).join(' ')}
                    {serials.length > SERIALS_SHOWN ? ' …' : ''}
                  </span>
                </p>
              );
            })}
          </div>
        )}
      </section>
    </div>
  );
}

const PSEUDOCODE = `seed       = sha256(serverSeed ‖ blockHash(revealEpoch))
deck       = [0 × count0, 1 × count1, …]
stream     = sha256(seed ‖ u64be(0)) ‖ sha256(seed ‖ u64be(1)) ‖ …  → u32be words
randBelow(m) = next word w < ⌊2^32 / m⌋·m, then w mod m
for i = N−1 … 1: swap(deck[i], deck[randBelow(i + 1)])
box serial s holds kind deck[s − 1]
assignmentHash = sha256(deck.join(','))`;

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
