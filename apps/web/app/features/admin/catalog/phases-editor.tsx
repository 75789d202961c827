import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { LOTTERY_EPOCH_MARGIN } from '@cfx/contract/admin-catalog-rules.ts';
import type { AdminReleaseDetail, EpochInfo } from '@cfx/contract/admin-catalog.ts';
import type { DropPhaseKind } from '@cfx/contract/drop-phases.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { adminApi, adminData } from '../api.ts';
import { ConfirmDialog } from '../components/dialogs.tsx';
import { Badge, Facts, notify, when } from '../components/ui.tsx';
import { useAdminT } from '../i18n.ts';
import { Field, move, RowMoves } from './fields.tsx';
import { fenToInput, fromLocalInput, inputToFen, intOf, toLocalInput } from '../../../lib/form-input.ts';

type Kind = DropPhaseKind;
/** The kinds in the order the editor offers them (drop-phases.ts DROP_PHASE_KINDS; a value import would pull zod into the console chunk). */
const DROP_PHASE_KINDS: readonly Kind[] = ['whitelist', 'claim', 'lottery_signup', 'lottery_rights', 'public'];
interface Row {
  kind: Kind;
  start: string;
  end: string;
  price: string;
}

/**
 * The sale phases and the lottery of a release (setDropPhases on the server): ordered rows of a
 * kind, a window (China time) and a price; a lottery sign-up is followed by the winners' phase,
 * which has no window of its own (it opens at the draw). The draw epoch is suggested from the
 * chain's newest epoch, its measured pace and the sign-up end, and shown as a date estimate.
 */
export function PhasesEditor({ release, onSaved }: { release: AdminReleaseDetail; onSaved: (d: AdminReleaseDetail) => void }) {
  const t = useAdminT();
  const locked = release.locks.phasesLocked;
  const [rows, setRows] = useState<Row[]>(() =>
    release.phaseInputs.map((p) => ({ kind: p.kind as Kind, start: toLocalInput(p.startAt), end: toLocalInput(p.endAt), price: p.kind === 'lottery_signup' ? '' : fenToInput(p.priceFen) })),
  );
  const l = release.lottery;
  const [lottery, setLottery] = useState({ drawEpoch: l ? String(l.drawEpoch) : '', winners: l ? String(l.winners) : '', winQuota: l ? String(l.winQuota) : '1', rightsMinutes: l ? String(l.rightsMinutes) : '60' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [confirmClear, setConfirmClear] = useState(false);
  const hasLottery = rows.some((r) => r.kind === 'lottery_signup');
  const epoch = useQuery({ queryKey: ['admin', 'epoch'], queryFn: () => adminData<EpochInfo>(AdminPaths.releaseEpoch), enabled: hasLottery || !!l });

  const setRow = (i: number, patch: Partial<Row>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const addRow = () => {
    const last = rows.at(-1);
    setRows((rs) => [...rs, { kind: 'public', start: last?.end || toLocalInput(release.saleStartAt), end: '', price: '' }]);
  };

  const suggest = () => {
    const e = epoch.data;
    const signup = rows.find((r) => r.kind === 'lottery_signup');
    const end = signup ? fromLocalInput(signup.end) : null;
    if (!e || e.epoch === null || end === null) return;
    const ahead = Math.max(0, Math.ceil((end - e.serverTime) / e.msPerEpoch));
    setLottery((x) => ({ ...x, drawEpoch: String(e.epoch! + ahead + LOTTERY_EPOCH_MARGIN) }));
  };
  const eta = (() => {
    const e = epoch.data;
    const n = intOf(lottery.drawEpoch);
    if (!e || e.epoch === null || n === null) return null;
    return e.serverTime + (n - e.epoch) * e.msPerEpoch;
  })();

  const save = async (clear = false): Promise<string | null> => {
    const fail = (m: string) => {
      setError(m);
      return m;
    };
    setError('');
    const phases = clear
      ? []
      : rows.map((r) => ({
          kind: r.kind,
          ...(r.kind === 'lottery_rights' ? {} : { startAt: fromLocalInput(r.start), endAt: r.end.trim() ? fromLocalInput(r.end) : null }),
          ...(r.kind === 'lottery_signup' || r.price.trim() === '' ? {} : { priceFen: inputToFen(r.price) }),
        }));
    if (phases.some((p) => 'priceFen' in p && p.priceFen === null)) return fail(t('releases.badPrice'));
    let lot = null;
    if (!clear && hasLottery) {
      const v = { drawEpoch: intOf(lottery.drawEpoch), winners: intOf(lottery.winners), winQuota: intOf(lottery.winQuota), rightsMinutes: intOf(lottery.rightsMinutes) };
      if (Object.values(v).some((x) => x === null)) return fail(t('releases.badNumber'));
      lot = v;
    }
    setBusy(true);
    const r = await adminApi<AdminReleaseDetail>(AdminPaths.releasePhases, { projectId: release.id, phases, lottery: lot });
    setBusy(false);
    if (!r.ok) {
      setError(r.message || t('catalog.saveFailed'));
      return r.message;
    }
    notify.ok(r.message);
    onSaved(r.data);
    return null;
  };

  return (
    <div className="space-y-4" data-testid="admin-phases">
      <p className="text-sm text-ink-faint">{t('phases.intro')}</p>
      {locked && (
        <p className="rounded bg-amber-50 px-3 py-2 text-sm text-warning" data-testid="admin-phases-locked">
          {t('phases.locked')}
        </p>
      )}
      {release.phases.length > 0 && (
        <ol className="flex flex-wrap gap-2 text-xs" data-testid="admin-phases-live">
          {release.phases.map((p) => (
            <li key={p.seq} className="rounded border border-line px-2 py-1" data-kind={p.kind} data-state={p.state}>
              {t(`phases.kinds.${p.kind}`)} · {t(`phases.state.${p.state}`)} · {p.startAt ? when(p.startAt) : '—'} → {p.endAt ? when(p.endAt) : '—'}
            </li>
          ))}
        </ol>
      )}
      <div className="card overflow-x-auto">
        <table className="w-full min-w-[760px] text-sm">
          <thead className="border-b border-line bg-canvas/60 text-left text-xs text-ink-faint">
            <tr>
              <th className="px-3 py-2">#</th>
              <th className="px-3 py-2">{t('phases.kind')}</th>
              <th className="px-3 py-2">{t('phases.start')}（{t('catalog.chinaTime')}）</th>
              <th className="px-3 py-2">{t('phases.end')}</th>
              <th className="px-3 py-2">{t('phases.price')}</th>
              <th className="px-3 py-2" />
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((r, i) => (
              <tr key={i} data-testid="admin-phase-row" data-kind={r.kind}>
                <td className="px-3 py-2 tabular">{i + 1}</td>
                <td className="px-3 py-2">
                  <select className="field-input h-9" value={r.kind} disabled={locked} onChange={(e) => setRow(i, { kind: e.target.value as Kind })} data-testid="admin-phase-kind">
                    {DROP_PHASE_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {t(`phases.kinds.${k}`)}
                      </option>
                    ))}
                  </select>
                </td>
                {r.kind === 'lottery_rights' ? (
                  <td className="px-3 py-2 text-ink-faint" colSpan={2}>
                    {t('phases.rightsWindow', { m: lottery.rightsMinutes || '—' })}
                  </td>
                ) : (
                  <>
                    <td className="px-3 py-2">
                      <input type="datetime-local" className="field-input h-9" value={r.start} disabled={locked} onChange={(e) => setRow(i, { start: e.target.value })} data-testid="admin-phase-start" />
                    </td>
                    <td className="px-3 py-2">
                      <input type="datetime-local" className="field-input h-9" value={r.end} disabled={locked} onChange={(e) => setRow(i, { end: e.target.value })} data-testid="admin-phase-end" />
                    </td>
                  </>
                )}
                <td className="px-3 py-2">
                  {r.kind === 'lottery_signup' ? (
                    <span className="text-ink-faint">—</span>
                  ) : r.kind === 'claim' ? (
                    <span className="text-ink-faint">0</span>
                  ) : (
                    <input className="field-input h-9 w-28" inputMode="decimal" value={r.price} placeholder={fenToInput(release.priceFen)} disabled={locked} onChange={(e) => setRow(i, { price: e.target.value })} data-testid="admin-phase-price" />
                  )}
                </td>
                <td className="px-3 py-2 text-right">{!locked && <RowMoves index={i} count={rows.length} onMove={(a, b) => setRows((rs) => move(rs, a, b))} onRemove={() => setRows((rs) => rs.filter((_, j) => j !== i))} />}</td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={6} className="px-3 py-6 text-center text-ink-faint">
                  {t('releases.noPhases')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {hasLottery && (
        <div className="card space-y-3 p-5" data-testid="admin-lottery">
          <h3 className="font-semibold text-ink">{t('phases.lotteryTitle')}</h3>
          <p className="text-sm text-ink-faint">{t('phases.lotteryIntro')}</p>
          {!rows.some((r, i) => r.kind === 'lottery_signup' && rows[i + 1]?.kind === 'lottery_rights') && <p className="text-sm text-warning">{t('phases.needLottery')}</p>}
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Field label={t('phases.drawEpoch')} hint={eta !== null ? t('phases.epochEta', { time: when(eta) }) : undefined}>
              <input className="field-input h-10" inputMode="numeric" value={lottery.drawEpoch} disabled={locked} onChange={(e) => setLottery((x) => ({ ...x, drawEpoch: e.target.value }))} data-testid="admin-lottery-epoch" />
            </Field>
            <Field label={t('phases.winners')}>
              <input className="field-input h-10" inputMode="numeric" value={lottery.winners} disabled={locked} onChange={(e) => setLottery((x) => ({ ...x, winners: e.target.value }))} data-testid="admin-lottery-winners" />
            </Field>
            <Field label={t('phases.winQuota')}>
              <input className="field-input h-10" inputMode="numeric" value={lottery.winQuota} disabled={locked} onChange={(e) => setLottery((x) => ({ ...x, winQuota: e.target.value }))} data-testid="admin-lottery-quota" />
            </Field>
            <Field label={t('phases.rightsMinutes')}>
              <input className="field-input h-10" inputMode="numeric" value={lottery.rightsMinutes} disabled={locked} onChange={(e) => setLottery((x) => ({ ...x, rightsMinutes: e.target.value }))} data-testid="admin-lottery-minutes" />
            </Field>
          </div>
          <div className="flex flex-wrap items-center gap-3 text-sm text-ink-faint">
            {epoch.data && epoch.data.epoch !== null ? (
              <span data-testid="admin-lottery-head">
                {t('phases.epochNow', { epoch: epoch.data.epoch, ms: epoch.data.msPerEpoch, measured: epoch.data.measured ? t('phases.epochMeasured') : t('phases.epochAssumed') })}
              </span>
            ) : (
              epoch.data && <span>{t('phases.epochNoChain')}</span>
            )}
            {!locked && (
              <button type="button" className="btn-ghost h-8" onClick={suggest} disabled={!epoch.data || epoch.data.epoch === null} data-testid="admin-lottery-suggest">
                {t('phases.suggest')}
              </button>
            )}
          </div>
        </div>
      )}
      {l && (
        <div className="card p-5" data-testid="admin-lottery-status" data-status={l.status}>
          <Facts
            rows={[
              [t('phases.lotteryStatus'), <Badge key="s" tone={l.status === 'drawn' ? 'good' : 'info'}>{t(`phases.lotteryStates.${l.status}`)}</Badge>],
              [t('phases.entries'), l.entries],
              [t('phases.drawEpoch'), l.drawEpoch],
              [t('phases.blockHash'), <span key="h" className="break-all font-mono text-xs">{l.blockHash ?? '—'}</span>],
              [t('phases.proof'), <a key="p" className="text-brand hover:underline" href={l.proofUrl} target="_blank" rel="noreferrer">{l.proofUrl}</a>],
            ]}
          />
        </div>
      )}
      {error && (
        <p className="text-sm text-danger" role="alert" data-testid="admin-phases-error">
          {error}
        </p>
      )}
      {!locked && (
        <div className="flex flex-wrap gap-3">
          <button type="button" className="btn-ghost" onClick={addRow} data-testid="admin-phase-add">
            {t('phases.add')}
          </button>
          <button type="button" className="btn-primary" disabled={busy || rows.length === 0} onClick={() => void save()} data-testid="admin-phases-save">
            {busy && <Spinner />} {t('phases.save')}
          </button>
          {release.phaseInputs.length > 0 && (
            <button type="button" className="btn-ghost text-danger" onClick={() => setConfirmClear(true)} data-testid="admin-phases-clear">
              {t('phases.clear')}
            </button>
          )}
        </div>
      )}
      <ConfirmDialog open={confirmClear} onClose={() => setConfirmClear(false)} title={t('phases.clearTitle')} intro={t('phases.clearIntro')} confirmLabel={t('phases.clear')} danger testId="admin-phases-clear-dialog" onConfirm={() => save(true)} />
    </div>
  );
}
