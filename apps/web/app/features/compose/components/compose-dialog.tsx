/**
 * Composing (lazy chunk): the recipe's fragments chosen, then the steps — reserve the fragments and a
 * result and get the consent to sign → sign in the wallet → submit → the operator's one
 * consumeAndMint on chain — and the result.
 */
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { ComposeRecord, ComposeRule } from '../../../lib/goods-flow/types.ts';
import { goodsFlowDeps } from '../../../lib/goods-flow/flow-deps.ts';
import { COMPOSE_STEPS, runCompose, type ComposeContext, type GfStep, type GfStepUpdate } from '../../../lib/goods-flow/flows.ts';
import { GfDialog, GfFailureActions, type GfFailure, type GfPhase } from '../../../components/goods-flow/gf-dialog.tsx';
import { GfSteps, type GfStepMap } from '../../../components/goods-flow/gf-steps.tsx';

export interface ComposeRequest {
  rule: Pick<ComposeRule, 'id' | 'name' | 'result'>;
  goodsIds: number[];
}

export default function ComposeDialog({ request, onClose, onDone }: { request: ComposeRequest; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<GfPhase>('form');
  const [steps, setSteps] = useState<GfStepMap>({});
  const [failure, setFailure] = useState<GfFailure | null>(null);
  const [record, setRecord] = useState<ComposeRecord | null>(null);
  const ctx = useRef<ComposeContext>({});
  const changed = useRef(false);
  const r = request.rule;

  const close = () => {
    onClose();
    if (changed.current) onDone();
  };
  const start = async () => {
    setPhase('running');
    setFailure(null);
    if (!ctx.current.consent) setSteps({});
    changed.current = true; // fragments are reserved from the first step on: refresh the lists afterwards
    const res = await runCompose({ ruleId: r.id, goodsIds: request.goodsIds }, goodsFlowDeps(t), (step: GfStep, u: GfStepUpdate) => setSteps((s) => ({ ...s, [step]: u })), ctx.current);
    if (res.ok) {
      setRecord(res.value);
      setPhase('done');
    } else {
      setFailure(res);
      setPhase('failed');
    }
  };

  return (
    <GfDialog title={t('compose.dialog.title')} testId="compose-dialog" kind="compose" phase={phase} goods={{ name: r.result.name, image: r.result.image, sub: r.name }} onClose={close}>
      {phase === 'form' && (
        <div>
          <p className="text-sm leading-6 text-ink-soft">{t('compose.dialog.intro', { n: request.goodsIds.length })}</p>
          <div className="mt-5 flex justify-end">
            <button type="button" className="btn-primary min-w-28" onClick={() => void start()} data-testid="compose-confirm">
              {t('compose.dialog.confirm')}
            </button>
          </div>
        </div>
      )}
      {phase !== 'form' && phase !== 'done' && <GfSteps steps={COMPOSE_STEPS} state={steps} kind="compose" />}
      {phase === 'failed' && failure && <GfFailureActions failure={failure} onRetry={() => void start()} onLeave={close} />}
      {phase === 'done' && record && (
        <div className="text-center" data-testid="compose-result" data-goods-id={record.result.goodsId ?? ''}>
          <Thumb src={record.result.image} alt={record.result.name} width={200} height={200} className="mx-auto size-48 rounded-card bg-night-soft object-cover shadow-pop" />
          <p className="mt-4 text-lg font-semibold text-ink">
            {record.result.name}
            {record.result.serial !== null && <span className="tabular ml-1 text-ink-soft">#{record.result.serial}</span>}
          </p>
          <p className="mt-1 text-sm text-success" role="status">
            {t('compose.dialog.done', { count: record.goods.length })}
          </p>
          {record.txHash && (
            <p className="mt-2 truncate font-mono text-[11px] text-ink-faint" title={record.txHash}>
              {record.txHash}
            </p>
          )}
          <div className="mt-5 flex justify-end gap-2">
            {record.result.goodsId !== null && (
              <Link to={`/assets/${record.result.goodsId}`} className="btn-ghost" onClick={close} data-testid="compose-view-result">
                {t('compose.dialog.viewResult')}
              </Link>
            )}
            <button type="button" className="btn-primary min-w-24" onClick={close} data-testid="compose-finish">
              {t('goodsFlow.finish')}
            </button>
          </div>
        </div>
      )}
    </GfDialog>
  );
}
