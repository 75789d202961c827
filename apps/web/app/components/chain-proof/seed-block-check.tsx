import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import { formatCnDateTime } from '../ui/cn-time.ts';
import { chainBlock } from './chain-block.ts';
import { checkSeedBlock, type BlockCheck } from './block-check.ts';

/**
 * The seed block of a draw, read live through the server (GET /chain/v1/block?epoch=) and compared
 * with the hash the draw published — on the lottery and the blind-box proof pages. On a public
 * network (mainnet, testnet) it also links the block on the explorer; on the embedded dev chain,
 * which no explorer knows, it says that this is the server's node's block. `onCheck` hands the
 * result to the page, whose recompute then starts from the chain's hash.
 */
export function SeedBlockCheck({ epoch, blockHash, onCheck }: { epoch: number; blockHash: string; onCheck?: (c: BlockCheck) => void }) {
  const { t } = useTranslation();
  const [check, setCheck] = useState<BlockCheck>({ state: 'loading' });
  const load = useCallback(async () => {
    setCheck({ state: 'loading' });
    const c = checkSeedBlock({ epoch, blockHash }, await chainBlock(epoch));
    setCheck(c);
    onCheck?.(c);
  }, [epoch, blockHash, onCheck]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="space-y-2 rounded-control border border-line p-4 text-sm" data-testid="seed-block-check" data-state={check.state}>
      <p className="font-medium text-ink">{t('proofBlock.title')}</p>
      {check.state === 'loading' && <p className="text-ink-soft">{t('proofBlock.loading', { epoch })}</p>}
      {check.state === 'error' && (
        <p className="text-ink-soft">
          {t('proofBlock.error', { message: check.message })}{' '}
          <button type="button" className="text-brand hover:underline" onClick={() => void load()}>
            {t('proofBlock.retry')}
          </button>
        </p>
      )}
      {(check.state === 'match' || check.state === 'mismatch') && (
        <>
          <p className={check.state === 'match' ? 'text-success' : 'text-danger'} role="status" data-testid="seed-block-result">
            {check.state === 'match' ? t('proofBlock.match', { epoch }) : t('proofBlock.mismatch', { epoch: check.block.epochNumber, hash: check.block.hash })}
          </p>
          <p className="break-all font-mono text-xs text-ink-soft" data-testid="seed-block-hash">
            {check.block.hash}
          </p>
          <p className="text-ink-soft">
            {t('proofBlock.meta', {
              time: formatCnDateTime(check.block.timestamp * 1000),
              confirmed: check.block.confirmed ? t('proofBlock.confirmed') : t('proofBlock.unconfirmed'),
            })}
          </p>
          {check.block.explorerUrl ? (
            <a href={check.block.explorerUrl} target="_blank" rel="noreferrer noopener" className="text-brand hover:underline" data-testid="seed-block-explorer">
              {t('proofBlock.viewOnExplorer')}
            </a>
          ) : (
            <p className="text-xs leading-5 text-ink-faint" data-testid="seed-block-embedded">
              {t('proofBlock.embeddedNote', { epoch })}
            </p>
          )}
        </>
      )}
    </div>
  );
}
