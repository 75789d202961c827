/**
 * Opening a blind box (lazy chunk): the wallet steps (prepare → sign the consent → submit → the
 * operator's transaction on chain), then the reveal — the box turns over to the drawn item with its
 * kind, rarity and odds (count / supply, exact: docs/drops.md "Blind boxes").
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { Opening, OpenBoxRequest } from '../../../lib/goods-flow/types.ts';
import { GfDialog, GfFailureActions, type GfFailure, type GfPhase } from '../../../components/goods-flow/gf-dialog.tsx';
import { oddsText } from '../odds.ts';
import { GfSteps, type GfStepMap } from '../../../components/goods-flow/gf-steps.tsx';
import { goodsFlowDeps } from '../../../lib/goods-flow/flow-deps.ts';
import { OPEN_BOX_STEPS, runOpenBox, type GfStep, type GfStepUpdate, type OpenBoxContext } from '../../../lib/goods-flow/flows.ts';


export default function OpenBoxDialog({ request, onClose, onDone }: { request: OpenBoxRequest; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<GfPhase>('form');
  const [steps, setSteps] = useState<GfStepMap>({});
  const [failure, setFailure] = useState<GfFailure | null>(null);
  const [opening, setOpening] = useState<Opening | null>(null);
  const ctx = useRef<OpenBoxContext>({});
  const done = useRef(false);
  const g = request.goods;

  const close = () => {
    onClose();
    if (done.current) onDone();
  };
  const start = async () => {
    setPhase('running');
    setFailure(null);
    if (!ctx.current.signature) setSteps({});
    const r = await runOpenBox(g.id, goodsFlowDeps(t), (step: GfStep, u: GfStepUpdate) => setSteps((s) => ({ ...s, [step]: u })), ctx.current);
    if (r.ok) {
      done.current = true;
      setOpening(r.value);
      setPhase('done');
    } else {
      setFailure(r);
      setPhase('failed');
    }
  };

  return (
    <GfDialog title={t('boxes.open.title')} testId="open-box-dialog" kind="openBox" phase={phase} goods={{ name: g.name, image: g.image }} onClose={close}>
      {phase === 'form' && (
        <div>
          <p className="text-sm leading-6 text-ink-soft">{t('boxes.open.intro')}</p>
          <p className="mt-2 text-xs text-ink-faint">
            <Link to={`/projects/box/${g.projectId}`} className="text-brand hover:underline" onClick={onClose} data-testid="open-box-proof-link">
              {t('boxes.open.oddsLink')}
            </Link>
          </p>
          <div className="mt-5 flex justify-end">
            <button type="button" className="btn-primary min-w-28" onClick={() => void start()} data-testid="open-box-confirm">
              {t('boxes.open.confirm')}
            </button>
          </div>
        </div>
      )}
      {phase !== 'form' && phase !== 'done' && <GfSteps steps={OPEN_BOX_STEPS} state={steps} kind="openBox" />}
      {phase === 'failed' && failure && <GfFailureActions failure={failure} onRetry={() => void start()} onLeave={onClose} />}
      {phase === 'done' && opening?.item && <Reveal opening={opening} boxImage={g.image} />}
      {phase === 'done' && (
        <div className="mt-5 flex justify-end gap-2">
          {opening?.item && (
            <Link to={`/assets/${opening.item.goodsId}`} className="btn-ghost" onClick={close} data-testid="open-box-view-item">
              {t('boxes.open.viewItem')}
            </Link>
          )}
          <button type="button" className="btn-primary min-w-24" onClick={close} data-testid="open-box-finish">
            {t('goodsFlow.finish')}
          </button>
        </div>
      )}
    </GfDialog>
  );
}

/** The box turns over to the item (a CSS 3D flip; no motion with reduced-motion). */
function Reveal({ opening, boxImage }: { opening: Opening; boxImage: string }) {
  const { t } = useTranslation();
  const [flipped, setFlipped] = useState(false);
  useEffect(() => {
    const id = setTimeout(() => setFlipped(true), 250);
    return () => clearTimeout(id);
  }, []);
  const item = opening.item!;
  return (
    <div className="text-center" data-testid="open-box-reveal" data-flipped={flipped ? 'true' : 'false'} data-kind={item.kind.index}>
      <div className="mx-auto size-56 [perspective:900px]">
        <div className={`relative size-full transition-transform duration-700 ease-out [transform-style:preserve-3d] motion-reduce:transition-none ${flipped ? '[transform:rotateY(180deg)]' : ''}`}>
          <div className="absolute inset-0 overflow-hidden rounded-card bg-night-soft shadow-pop [backface-visibility:hidden]">
            <Thumb src={boxImage} alt="" width={224} height={224} className="size-full object-cover" />
          </div>
          <div className="absolute inset-0 overflow-hidden rounded-card bg-night-soft shadow-pop [backface-visibility:hidden] [transform:rotateY(180deg)]">
            <Thumb src={item.image} alt={item.name} width={224} height={224} className="size-full object-cover" />
          </div>
        </div>
      </div>
      <p className="mt-4 text-lg font-semibold text-ink" data-testid="open-box-item-name">
        {item.name}
      </p>
      <p className="mt-1 text-sm text-ink-soft" data-testid="open-box-item-kind">
        <span className="mr-2 rounded-full bg-brand-soft px-2 py-0.5 text-xs font-medium text-brand">{item.kind.rarity}</span>
        {t('boxes.open.odds', { kind: item.kind.name, count: item.kind.count, supply: item.supply, pct: oddsText(item.kind.count, item.supply) })}
      </p>
      {opening.txHash && (
        <p className="mt-2 truncate font-mono text-[11px] text-ink-faint" title={opening.txHash} data-testid="open-box-tx">
          {opening.txHash}
        </p>
      )}
      <p className="sr-only" role="status">
        {t('boxes.open.revealed', { name: item.name })}
      </p>
    </div>
  );
}
