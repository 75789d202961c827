/**
 * Moving a collectible (lazy chunk): to another address of mine (shift) or to another real-named
 * user (gift, 转赠). Shows whether it can move now (holding period, listing, other flows, the daily
 * gift limit) from queryShiftStatus, the destination form (an address, or the receiver's phone /
 * account id with a look-up), then the wallet steps: prepare → transferFrom in the wallet (waiting
 * for the wallet, confirming on chain) → the server records it.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { findGiftReceiver, getShiftStatus } from '../../../lib/goods-flow/calls.ts';
import type { GiftReceiver, GoodsTransfer, ShiftStatus } from '../../../lib/goods-flow/types.ts';
import { GfDialog, GfFailureActions, type GfFailure, type GfPhase } from '../../../components/goods-flow/gf-dialog.tsx';
import { GfSteps, type GfStepMap } from '../../../components/goods-flow/gf-steps.tsx';
import { goodsFlowDeps } from '../../../lib/goods-flow/flow-deps.ts';
import { TRANSFER_STEPS, runTransfer, type GfStep, type GfStepUpdate, type TransferContext, type TransferInput } from '../../../lib/goods-flow/flows.ts';

export interface TransferRequest {
  mode: 'shift' | 'gift';
  goods: { id: number; name: string; image: string };
}

const PHONE = /^1\d{10}$/;
const ACCOUNT = /^\d{1,20}$/;

export default function TransferDialog({ request, onClose, onDone }: { request: TransferRequest; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState(request.mode);
  const [status, setStatus] = useState<{ s: 'loading' } | { s: 'ok'; v: ShiftStatus } | { s: 'error'; message: string }>({ s: 'loading' });
  const [phase, setPhase] = useState<GfPhase>('form');
  const [steps, setSteps] = useState<GfStepMap>({});
  const [failure, setFailure] = useState<GfFailure | null>(null);
  const [result, setResult] = useState<GoodsTransfer | null>(null);
  const [input, setInput] = useState<TransferInput | null>(null);
  const ctx = useRef<TransferContext>({});
  const done = useRef(false);
  const g = request.goods;

  useEffect(() => {
    let live = true;
    void getShiftStatus(g.id).then((r) => {
      if (!live) return;
      setStatus(r.ok && r.data ? { s: 'ok', v: r.data } : { s: 'error', message: r.networkError ? t('goodsFlow.network') : r.message || t('common.requestFailed') });
    });
    return () => {
      live = false;
    };
  }, [g.id, t]);

  const close = () => {
    onClose();
    if (done.current) onDone();
  };
  const start = async (i: TransferInput) => {
    setInput(i);
    setPhase('running');
    setFailure(null);
    if (!ctx.current.intent) setSteps({});
    const r = await runTransfer(i, goodsFlowDeps(t), (step: GfStep, u: GfStepUpdate) => setSteps((s) => ({ ...s, [step]: u })), ctx.current);
    if (r.ok) {
      done.current = true;
      setResult(r.value);
      setPhase('done');
    } else {
      if (ctx.current.hash) done.current = true;
      setFailure(r);
      setPhase('failed');
    }
  };

  return (
    <GfDialog title={t(`shift.dialog.${mode}Title`)} testId="transfer-dialog" kind={mode} phase={phase} goods={{ name: g.name, image: g.image }} onClose={close}>
      {phase === 'form' && (
        <>
          <div className="mb-4 flex gap-2" role="tablist" aria-label={t('shift.dialog.modeLabel')}>
            {(['shift', 'gift'] as const).map((m) => (
              <button
                key={m}
                type="button"
                role="tab"
                aria-selected={mode === m}
                className={`rounded-full border px-3 py-1 text-sm ${mode === m ? 'border-brand bg-brand-soft text-brand' : 'border-line text-ink-soft hover:border-brand'}`}
                onClick={() => setMode(m)}
                data-testid={`transfer-mode-${m}`}
              >
                {t(`shift.dialog.mode.${m}`)}
              </button>
            ))}
          </div>
          <StatusPanel status={status} mode={mode} />
          {status.s === 'ok' && status.v.canShift && (mode === 'shift' ? <ShiftForm onSubmit={(toAddress) => void start({ kind: 'shift', goodsId: g.id, toAddress })} /> : <GiftForm status={status.v} onSubmit={(by) => void start({ kind: 'gift', goodsId: g.id, ...by })} />)}
        </>
      )}
      {phase !== 'form' && <GfSteps steps={TRANSFER_STEPS} state={steps} kind="transfer" />}
      {phase === 'failed' && failure && input && <GfFailureActions failure={failure} onRetry={() => void start(input)} onLeave={onClose} />}
      {phase === 'done' && result && (
        <div className="mt-5 rounded-control bg-success/10 p-4 text-sm text-success" role="status" data-testid="transfer-done" data-status={result.status}>
          {result.kind === 'gift' ? t('shift.dialog.giftDone', { name: result.to.nickname || result.to.accountId }) : t('shift.dialog.shiftDone', { address: result.toAddress })}
          {result.status !== 'done' && <span className="block text-ink-soft">{t('goodsFlow.syncLater')}</span>}
        </div>
      )}
      {phase === 'done' && (
        <div className="mt-5 flex justify-end">
          <button type="button" className="btn-primary min-w-24" onClick={close} data-testid="transfer-finish">
            {t('goodsFlow.finish')}
          </button>
        </div>
      )}
    </GfDialog>
  );
}

function StatusPanel({ status, mode }: { status: { s: 'loading' } | { s: 'ok'; v: ShiftStatus } | { s: 'error'; message: string }; mode: 'shift' | 'gift' }) {
  const { t } = useTranslation();
  if (status.s === 'loading') {
    return (
      <p className="flex items-center gap-2 text-sm text-ink-faint" role="status">
        <Spinner /> {t('common.loading')}
      </p>
    );
  }
  if (status.s === 'error') {
    return (
      <p className="text-sm text-danger" role="alert" data-testid="transfer-status-error">
        {status.message}
      </p>
    );
  }
  const v = status.v;
  return (
    <div className="mb-4 space-y-1 text-sm" data-testid="transfer-status" data-can={v.canShift ? 'true' : 'false'} data-blocked={v.blockedBy ?? ''}>
      {!v.canShift && (
        <p className="text-warning" role="alert" data-testid="transfer-blocked">
          {v.reason}
        </p>
      )}
      {v.holdingDays > 0 && <p className="text-ink-faint">{t('shift.dialog.holding', { count: v.holdingDays, time: formatCnDateTime(v.transferableAt) })}</p>}
      {v.holderAddress && <p className="break-all text-ink-faint">{t('shift.dialog.elsewhere', { address: v.holderAddress })}</p>}
      {mode === 'gift' && <p className="text-ink-faint" data-testid="transfer-gift-count">{t('shift.dialog.giftsToday', { n: v.giftsToday, max: v.giftsPerDay })}</p>}
      <p className="text-xs text-ink-faint">{t(`shift.dialog.${mode}Hint`)}</p>
    </div>
  );
}

function ShiftForm({ onSubmit }: { onSubmit: (address: string) => void }) {
  const { t } = useTranslation();
  const [address, setAddress] = useState('');
  const [error, setError] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const a = address.trim();
    if (!/^cfx:[a-z0-9]{42}$/i.test(a)) return setError(t('shift.dialog.badAddress'));
    onSubmit(a);
  };
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor="shift-address" className="mb-1.5 block text-sm text-ink-soft">
        {t('shift.dialog.address')}
      </label>
      <input
        id="shift-address"
        className={`field-input font-mono ${error ? 'border-danger' : ''}`}
        value={address}
        autoComplete="off"
        spellCheck={false}
        placeholder="cfx:…"
        onChange={(e) => (setAddress(e.target.value), setError(''))}
        aria-invalid={error ? true : undefined}
        data-testid="shift-address"
      />
      {error && (
        <p className="mt-1 text-xs text-danger" role="alert">
          {error}
        </p>
      )}
      <div className="mt-5 flex justify-end">
        <button type="submit" className="btn-primary min-w-28" data-testid="transfer-confirm">
          {t('shift.dialog.shiftConfirm')}
        </button>
      </div>
    </form>
  );
}

function GiftForm({ status, onSubmit }: { status: ShiftStatus; onSubmit: (by: { mobile?: string; accountId?: string }) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [who, setWho] = useState<{ s: 'idle' } | { s: 'loading' } | { s: 'ok'; v: GiftReceiver; by: { mobile?: string; accountId?: string } } | { s: 'error'; message: string }>({ s: 'idle' });
  const capped = status.giftsToday >= status.giftsPerDay;
  const lookUp = async (e: FormEvent) => {
    e.preventDefault();
    const v = text.trim();
    const by = PHONE.test(v) ? { mobile: v } : ACCOUNT.test(v) ? { accountId: v } : null;
    if (!by) return setWho({ s: 'error', message: t('shift.dialog.badReceiver') });
    setWho({ s: 'loading' });
    const r = await findGiftReceiver(by);
    setWho(r.ok && r.data ? { s: 'ok', v: r.data, by } : { s: 'error', message: r.networkError ? t('goodsFlow.network') : r.message || t('common.requestFailed') });
  };
  return (
    <div>
      <form onSubmit={(e) => void lookUp(e)} noValidate>
        <label htmlFor="gift-receiver" className="mb-1.5 block text-sm text-ink-soft">
          {t('shift.dialog.receiver')}
        </label>
        <div className="flex gap-2">
          <input
            id="gift-receiver"
            className="field-input"
            value={text}
            inputMode="numeric"
            autoComplete="off"
            placeholder={t('shift.dialog.receiverPlaceholder')}
            onChange={(e) => (setText(e.target.value), setWho({ s: 'idle' }))}
            data-testid="gift-receiver"
          />
          <button type="submit" className="btn-ghost shrink-0" disabled={who.s === 'loading'} data-testid="gift-lookup">
            {t('shift.dialog.lookUp')}
          </button>
        </div>
      </form>
      {who.s === 'error' && (
        <p className="mt-2 text-sm text-danger" role="alert" data-testid="gift-receiver-error">
          {who.message}
        </p>
      )}
      {who.s === 'ok' && (
        <div className="mt-3 rounded-control border border-line p-3 text-sm" data-testid="gift-receiver-card" data-eligible={who.v.eligible ? 'true' : 'false'}>
          <p className="text-ink">
            {who.v.nickname} <span className="text-ink-faint">· {who.v.accountId}</span>
          </p>
          {!who.v.eligible && <p className="mt-1 text-danger">{who.v.reason}</p>}
        </div>
      )}
      {capped && <p className="mt-2 text-sm text-warning">{t('shift.dialog.capped', { max: status.giftsPerDay })}</p>}
      <div className="mt-5 flex justify-end">
        <button type="button" className="btn-primary min-w-28" disabled={who.s !== 'ok' || !who.v.eligible || capped} onClick={() => who.s === 'ok' && onSubmit(who.by)} data-testid="transfer-confirm">
          {t('shift.dialog.giftConfirm')}
        </button>
      </div>
    </div>
  );
}
