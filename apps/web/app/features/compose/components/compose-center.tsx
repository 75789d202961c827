/**
 * The compose page of the personal center (/personal-center/compose, docs/drops.md "Compose"): the
 * rules with my progress per ingredient (composerule), the chosen rule's fragment picker
 * (getfragmentlist; the first usable ones preselected, each ingredient needs exactly its count),
 * compose (a lazy dialog with the wallet steps and the result), my fragments (chipAll) and my
 * compose records (composerecord). `?rule=<id>` picks a rule.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { EmptyBlock, LoadingBlock } from '../../../components/ui/spinner.tsx';
import { Thumb } from '../../../components/ui/thumb.tsx';
import { useUserStore } from '../../../stores/user.ts';
import { getFragmentList, listChipAll, listComposeRecords, listComposeRules } from '../../../lib/goods-flow/calls.ts';
import type { ComposeRecord, ComposeRule, FragmentList } from '../../../lib/goods-flow/types.ts';
import type { ComposeRequest } from './compose-dialog.tsx';

const ComposeDialog = lazy(() => import('./compose-dialog.tsx'));

/** Resolves with data or throws (for TanStack Query), keeping the server's message. */
async function data<T>(p: Promise<{ ok: boolean; data: T | null; message: string; networkError?: boolean }>): Promise<T> {
  const r = await p;
  if (!r.ok || r.data === null) throw new Error(r.message || 'request failed');
  return r.data;
}

function Retry({ onRetry, testId }: { onRetry: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="py-8 text-center text-sm text-ink-faint" data-testid={testId}>
      {t('compose.loadFailed')}{' '}
      <button type="button" className="text-brand hover:underline" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

export function ComposeCenter() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const [params, setParams] = useSearchParams();
  const ruleId = Number(params.get('rule')) || null;
  const rules = useQuery({ queryKey: ['compose-rules', token], queryFn: () => data(listComposeRules({ pageNum: 1, pageSize: 50 })), enabled: token !== '', placeholderData: keepPreviousData });
  const pick = (id: number) => setParams((p) => (p.set('rule', String(id)), p), { replace: true });
  return (
    <div className="space-y-6" data-testid="compose-center">
      <section className="card p-5" data-testid="compose-rules" data-status={rules.isPending ? 'loading' : rules.isError ? 'error' : rules.data.list.length ? 'ready' : 'empty'}>
        <h2 className="mb-1 text-base text-ink">{t('compose.rules')}</h2>
        <p className="mb-4 text-xs text-ink-faint">{t('compose.rulesHint')}</p>
        {rules.isPending ? (
          <LoadingBlock label={t('common.loading')} />
        ) : rules.isError ? (
          <Retry onRetry={() => void rules.refetch()} testId="compose-rules-error" />
        ) : rules.data.list.length === 0 ? (
          <EmptyBlock label={t('compose.noRules')} />
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {rules.data.list.map((r) => (
              <RuleCard key={r.id} rule={r} active={r.id === ruleId} onPick={() => pick(r.id)} />
            ))}
          </ul>
        )}
      </section>
      {ruleId !== null && <RulePanel key={ruleId} ruleId={ruleId} />}
      <MyFragments />
      <ComposeRecords />
    </div>
  );
}

function RuleCard({ rule: r, active, onPick }: { rule: ComposeRule; active: boolean; onPick: () => void }) {
  const { t } = useTranslation();
  return (
    <li className={`rounded-card border p-4 ${active ? 'border-brand' : 'border-line'}`} data-testid="compose-rule" data-id={r.id} data-status={r.status} data-can={r.canCompose ? 'true' : 'false'}>
      <div className="flex gap-3">
        <Thumb src={r.result.image} alt={r.result.name} width={72} height={72} className="size-18 shrink-0 rounded-md bg-night-soft object-cover" />
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium text-ink">{r.name}</p>
          <p className="truncate text-xs text-ink-faint">{t('compose.result', { name: r.result.name })}</p>
          <p className="mt-1 text-xs text-ink-soft">
            <span className={`mr-2 rounded-full px-2 py-0.5 ${r.status === 'active' ? 'bg-success/10 text-success' : 'bg-canvas text-ink-faint'}`}>{t(`compose.status.${r.status}`)}</span>
            <span className="tabular">{t('compose.remaining', { n: r.remaining, max: r.maxTimes })}</span>
          </p>
        </div>
      </div>
      {r.description && <p className="mt-2 text-xs text-ink-soft">{r.description}</p>}
      <ul className="mt-3 space-y-1.5">
        {r.ingredients.map((i) => (
          <li key={i.projectId} className="text-xs" data-testid="compose-progress" data-held={i.held} data-count={i.count}>
            <div className="flex justify-between text-ink-soft">
              <span className="truncate">{i.projectName}</span>
              <span className={`tabular ${i.enough ? 'text-success' : ''}`}>
                {Math.min(i.held, i.count)}/{i.count}
              </span>
            </div>
            <div className="mt-0.5 h-1.5 overflow-hidden rounded-full bg-canvas" aria-hidden>
              <div className={`h-full ${i.enough ? 'bg-success' : 'bg-brand'}`} style={{ width: `${Math.min(100, (i.held / i.count) * 100)}%` }} />
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-3 text-right">
        <button type="button" className="btn-primary h-8 px-4 text-xs" onClick={onPick} data-testid="compose-rule-pick">
          {t('compose.pick')}
        </button>
      </div>
      {r.startAt > r.serverTime && <p className="mt-2 text-xs text-ink-faint">{t('compose.startsAt', { time: formatCnDateTime(r.startAt) })}</p>}
    </li>
  );
}

/** The chosen rule: my fragments per ingredient, the selection, and compose. */
function RulePanel({ ruleId }: { ruleId: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['fragment-list', ruleId], queryFn: () => data(getFragmentList(ruleId)) });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [request, setRequest] = useState<ComposeRequest | null>(null);
  // Preselect the first usable fragments of each ingredient.
  useEffect(() => {
    if (q.data) setSelected(new Set(q.data.ingredients.flatMap((i) => i.items.filter((x) => x.available).slice(0, i.count).map((x) => x.id))));
  }, [q.data]);
  const fits = useMemo(() => (q.data ? q.data.ingredients.every((i) => i.items.filter((x) => selected.has(x.id)).length === i.count) : false), [q.data, selected]);
  if (q.isPending) return <section className="card p-5"><LoadingBlock label={t('common.loading')} /></section>;
  if (q.isError) return <section className="card p-5"><Retry onRetry={() => void q.refetch()} testId="fragment-list-error" /></section>;
  const d: FragmentList = q.data;
  const toggle = (id: number, projectId: number) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else {
        const ing = d.ingredients.find((i) => i.projectId === projectId)!;
        const chosen = ing.items.filter((x) => next.has(x.id));
        // At the ingredient's count, a new pick replaces the oldest one.
        if (chosen.length >= ing.count) next.delete(chosen[0]!.id);
        next.add(id);
      }
      return next;
    });
  };
  return (
    <section className="card p-5" data-testid="compose-panel" data-rule={ruleId} data-fits={fits ? 'true' : 'false'}>
      <h2 className="text-base text-ink">{d.rule.name}</h2>
      <p className="mb-4 text-xs text-ink-faint">{t('compose.pickHint')}</p>
      {d.ingredients.map((i) => {
        const chosen = i.items.filter((x) => selected.has(x.id)).length;
        return (
          <div key={i.projectId} className="mb-5" data-testid="compose-ingredient" data-project={i.projectId}>
            <p className="mb-2 text-sm text-ink">
              {i.projectName} <span className={`tabular ${chosen === i.count ? 'text-success' : 'text-ink-faint'}`}>{t('compose.chosen', { n: chosen, count: i.count })}</span>
            </p>
            {i.items.length === 0 ? (
              <p className="text-xs text-ink-faint">{t('compose.noFragments')}</p>
            ) : (
              <ul className="grid grid-cols-3 gap-3 sm:grid-cols-5">
                {i.items.map((x) => (
                  <li key={x.id}>
                    <label
                      className={`block cursor-pointer overflow-hidden rounded-control border text-xs ${selected.has(x.id) ? 'border-brand ring-2 ring-brand/40' : 'border-line'} ${x.available ? '' : 'cursor-not-allowed opacity-50'}`}
                      data-testid="fragment-item"
                      data-id={x.id}
                      data-available={x.available ? 'true' : 'false'}
                      data-selected={selected.has(x.id) ? 'true' : 'false'}
                    >
                      <input type="checkbox" className="sr-only" checked={selected.has(x.id)} disabled={!x.available} onChange={() => toggle(x.id, i.projectId)} />
                      <Thumb src={x.image} alt="" width={96} height={96} className="aspect-square w-full bg-night-soft object-cover" />
                      <span className="block truncate px-1.5 py-1 text-ink-soft">#{x.serial}</span>
                      {x.blockedBy && <span className="block truncate px-1.5 pb-1 text-[10px] text-warning">{t(`compose.blocked.${x.blockedBy}`)}</span>}
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
      <div className="flex items-center justify-end gap-3">
        {!d.rule.canCompose && <span className="text-xs text-ink-faint">{d.rule.status === 'active' ? t('compose.notEnough') : t(`compose.status.${d.rule.status}`)}</span>}
        <button type="button" className="btn-primary min-w-28" disabled={!fits || d.rule.status !== 'active'} onClick={() => setRequest({ rule: d.rule, goodsIds: [...selected] })} data-testid="compose-start">
          {t('compose.compose')}
        </button>
      </div>
      {request && (
        <Suspense fallback={null}>
          <ComposeDialog
            request={request}
            onClose={() => setRequest(null)}
            onDone={() => {
              for (const key of ['fragment-list', 'compose-rules', 'compose-records', 'chip-all', 'my-assets', 'collection-head']) void client.invalidateQueries({ queryKey: [key] });
            }}
          />
        </Suspense>
      )}
    </section>
  );
}

function MyFragments() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['chip-all', token], queryFn: () => data(listChipAll()), enabled: token !== '' });
  return (
    <section className="card p-5" data-testid="my-fragments" data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.length ? 'ready' : 'empty'}>
      <h2 className="mb-4 text-base text-ink">{t('compose.fragments')}</h2>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <Retry onRetry={() => void q.refetch()} testId="my-fragments-error" />
      ) : q.data.length === 0 ? (
        <EmptyBlock label={t('compose.noFragmentsAll')} />
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {q.data.map((c) => (
            <li key={c.projectId} className="flex items-center gap-3 rounded-control border border-line p-2" data-testid="fragment-group" data-project={c.projectId} data-count={c.count}>
              <Thumb src={c.cover} alt="" width={48} height={48} className="size-12 shrink-0 rounded bg-night-soft object-cover" />
              <div className="min-w-0 text-xs">
                <p className="truncate text-sm text-ink">{c.projectName}</p>
                <p className="tabular text-ink-faint">{t('compose.fragmentCount', { n: c.count, available: c.available })}</p>
                {c.ruleIds[0] !== undefined && (
                  <Link to={`?rule=${c.ruleIds[0]}`} className="text-brand hover:underline">
                    {t('compose.useIt')}
                  </Link>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ComposeRecords() {
  const { t } = useTranslation();
  const token = useUserStore((s) => s.token);
  const q = useQuery({ queryKey: ['compose-records', token], queryFn: () => data(listComposeRecords({ pageNum: 1, pageSize: 20 })), enabled: token !== '' });
  return (
    <section className="card p-5" data-testid="compose-records" data-status={q.isPending ? 'loading' : q.isError ? 'error' : q.data.list.length ? 'ready' : 'empty'}>
      <h2 className="mb-4 text-base text-ink">{t('compose.records')}</h2>
      {q.isPending ? (
        <LoadingBlock label={t('common.loading')} />
      ) : q.isError ? (
        <Retry onRetry={() => void q.refetch()} testId="compose-records-error" />
      ) : q.data.list.length === 0 ? (
        <EmptyBlock label={t('compose.noRecords')} />
      ) : (
        <ul className="divide-y divide-line">
          {q.data.list.map((r) => (
            <RecordRow key={r.composeNo} r={r} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RecordRow({ r }: { r: ComposeRecord }) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-wrap items-center gap-3 py-3 text-sm" data-testid="compose-record" data-status={r.status} data-compose-no={r.composeNo}>
      <Thumb src={r.result.image} alt="" width={40} height={40} className="size-10 rounded bg-night-soft object-cover" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-ink">
          {r.ruleName} → {r.result.name}
          {r.result.serial !== null && ` #${r.result.serial}`}
        </p>
        <p className="text-xs text-ink-faint">
          {formatCnDateTime(r.createdAt)} · {t('compose.burns', { count: r.goods.length })}
        </p>
        {r.failReason && <p className="text-xs text-danger">{r.failReason}</p>}
      </div>
      <span className={`rounded-full px-2 py-0.5 text-xs ${r.status === 'completed' ? 'bg-success/10 text-success' : r.status === 'failed' ? 'bg-danger/10 text-danger' : 'bg-canvas text-ink-soft'}`}>{t(`compose.recordStatus.${r.status}`)}</span>
      {r.explorerUrl && (
        <a href={r.explorerUrl} target="_blank" rel="noreferrer noopener" className="text-xs text-brand hover:underline">
          {t('compose.viewTx')}
        </a>
      )}
    </li>
  );
}
