import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { COMPOSE_LIMITS } from '@cfx/contract/admin-catalog-rules.ts';
import type { AdminComposeRule, AdminReleaseRow } from '@cfx/contract/admin-catalog.ts';
import type { Page } from '@cfx/contract/admin.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { adminApi, adminData } from '../api.ts';
import { Badge, notify, QueryState, Table, td, when } from '../components/ui.tsx';
import { useAdminT } from '../i18n.ts';
import { Field, ImageField } from './fields.tsx';
import { fromLocalInput, intOf, toLocalInput } from '../../../lib/form-input.ts';

/** Compose recipes: the list, and a form to create one or edit it by the server's rules (createComposeRule / updateComposeRule). */
export function ComposePanel() {
  const t = useAdminT();
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'compose'], queryFn: () => adminData<Page<AdminComposeRule>>(AdminPaths.composeList, { pageNum: 1, pageSize: 50 }) });
  const [editing, setEditing] = useState<AdminComposeRule | 'new' | null>(null);
  return (
    <div className="space-y-4" data-testid="admin-compose">
      {editing ? (
        <ComposeForm
          key={editing === 'new' ? 'new' : editing.id}
          rule={editing === 'new' ? null : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) void client.invalidateQueries({ queryKey: ['admin', 'compose'] });
          }}
        />
      ) : (
        <button type="button" className="btn-primary" onClick={() => setEditing('new')} data-testid="admin-compose-new">
          {t('compose.new')}
        </button>
      )}
      <QueryState q={q} isEmpty={(d) => d.list.length === 0}>
        {(d) => (
          <Table head={[t('releases.id'), t('compose.name'), t('compose.ingredients'), t('compose.result'), t('compose.maxTimes'), t('compose.window'), t('common.status'), '']} testId="admin-compose-table">
            {d.list.map((r) => (
              <tr key={r.id} data-testid="admin-compose-row" data-id={r.id}>
                <td className={`${td} tabular`}>{r.id}</td>
                <td className={td}>{r.name}</td>
                <td className={td}>
                  {r.ingredients.map((i) => (
                    <div key={i.projectId}>
                      #{i.projectId} {i.projectName} × {i.count}
                    </div>
                  ))}
                </td>
                <td className={td}>
                  #{r.resultProjectId} {r.resultName}
                </td>
                <td className={`${td} tabular`}>{t('compose.used', { used: r.usedTimes, max: r.maxTimes })}</td>
                <td className={`${td} tabular whitespace-nowrap`}>
                  {when(r.startAt)}
                  <br />
                  {r.endAt ? when(r.endAt) : '—'}
                </td>
                <td className={td}>
                  <Badge tone={r.status === 'active' ? 'good' : 'neutral'}>{t(`compose.status.${r.status}`)}</Badge>
                </td>
                <td className={td}>
                  <button type="button" className="text-brand hover:underline" onClick={() => setEditing(r)} data-testid="admin-compose-edit">
                    {t('compose.edit')}
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </QueryState>
    </div>
  );
}

function ComposeForm({ rule, onDone }: { rule: AdminComposeRule | null; onDone: (saved: boolean) => void }) {
  const t = useAdminT();
  const frozen = (rule?.records ?? 0) > 0;
  const [f, setF] = useState({
    name: rule?.name ?? '',
    description: rule?.description ?? '',
    maxTimes: rule ? String(rule.maxTimes) : '10',
    start: toLocalInput(rule?.startAt ?? Date.now()),
    end: toLocalInput(rule?.endAt ?? null),
    resultName: rule?.resultName ?? '',
    resultImage: rule?.resultImage ?? '',
  });
  const [ingredients, setIngredients] = useState<{ projectId: number; name: string; count: string }[]>(() => rule?.ingredients.map((i) => ({ projectId: i.projectId, name: i.projectName, count: String(i.count) })) ?? []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));

  const save = async () => {
    setError('');
    const startAt = fromLocalInput(f.start);
    const maxTimes = intOf(f.maxTimes);
    if (startAt === null || maxTimes === null || ingredients.some((i) => intOf(i.count) === null)) return setError(t('releases.badNumber'));
    setBusy(true);
    const r = await adminApi<AdminComposeRule>(AdminPaths.composeSave, {
      ...(rule ? { id: rule.id } : {}),
      name: f.name,
      description: f.description,
      ingredients: ingredients.map((i) => ({ projectId: i.projectId, count: intOf(i.count)! })),
      maxTimes,
      startAt,
      endAt: f.end.trim() ? fromLocalInput(f.end) : null,
      resultName: f.resultName || null,
      resultImage: f.resultImage || null,
    });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    notify.ok(r.message);
    onDone(true);
  };

  return (
    <div className="card grid gap-4 p-5 lg:grid-cols-2" data-testid="admin-compose-form">
      {frozen && <p className="rounded bg-amber-50 px-3 py-2 text-sm text-warning lg:col-span-2">{t('compose.frozen')}</p>}
      <Field label={t('compose.name')}>
        <input className="field-input h-10" value={f.name} maxLength={COMPOSE_LIMITS.nameMax} onChange={(e) => set('name')(e.target.value)} data-testid="admin-compose-name" />
      </Field>
      <Field label={t('compose.maxTimes')} hint={rule ? t('compose.maxHint', { n: rule.resultSupply }) : undefined}>
        <input className="field-input h-10" inputMode="numeric" value={f.maxTimes} onChange={(e) => set('maxTimes')(e.target.value)} data-testid="admin-compose-max" />
      </Field>
      <Field label={t('compose.description')} className="lg:col-span-2">
        <textarea className="field-input h-20 py-2" value={f.description} maxLength={COMPOSE_LIMITS.descriptionMax} onChange={(e) => set('description')(e.target.value)} />
      </Field>
      <div className="space-y-2 text-sm lg:col-span-2">
        <span className="block text-ink-soft">{t('compose.ingredients')}</span>
        {ingredients.map((i, n) => (
          <div key={i.projectId} className="flex items-center gap-3" data-testid="admin-compose-ingredient">
            <span className="min-w-0 flex-1 truncate">
              #{i.projectId} {i.name}
            </span>
            <input
              className="field-input h-9 w-24"
              inputMode="numeric"
              value={i.count}
              disabled={frozen}
              aria-label={t('compose.count')}
              onChange={(e) => setIngredients((xs) => xs.map((x, j) => (j === n ? { ...x, count: e.target.value } : x)))}
            />
            {!frozen && (
              <button type="button" className="text-ink-faint hover:text-danger" aria-label={t('catalog.remove')} onClick={() => setIngredients((xs) => xs.filter((_, j) => j !== n))}>
                ×
              </button>
            )}
          </div>
        ))}
        {!frozen && ingredients.length < COMPOSE_LIMITS.ingredientsMax && (
          <ReleasePicker exclude={ingredients.map((i) => i.projectId)} onPick={(p) => setIngredients((xs) => [...xs, { projectId: p.id, name: p.name, count: '1' }])} />
        )}
      </div>
      <Field label={`${t('compose.start')}（${t('catalog.chinaTime')}）`}>
        <input type="datetime-local" className="field-input h-10" value={f.start} onChange={(e) => set('start')(e.target.value)} />
      </Field>
      <Field label={t('compose.end')}>
        <input type="datetime-local" className="field-input h-10" value={f.end} onChange={(e) => set('end')(e.target.value)} />
      </Field>
      <Field label={t('compose.resultName')}>
        <input className="field-input h-10" value={f.resultName} disabled={frozen} maxLength={COMPOSE_LIMITS.nameMax} onChange={(e) => set('resultName')(e.target.value)} />
      </Field>
      <ImageField label={t('compose.resultImage')} value={f.resultImage} onChange={set('resultImage')} uploadPath={AdminPaths.releaseUpload} testId="admin-compose-image" disabled={frozen} />
      {error && (
        <p className="text-sm text-danger lg:col-span-2" role="alert" data-testid="admin-compose-error">
          {error}
        </p>
      )}
      <div className="flex gap-3 lg:col-span-2">
        <button type="button" className="btn-primary" disabled={busy} onClick={() => void save()} data-testid="admin-compose-save">
          {busy && <Spinner />} {t('compose.save')}
        </button>
        <button type="button" className="btn-ghost" onClick={() => onDone(false)}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}

/** Finds a release by name or id (the release list of the console). */
function ReleasePicker({ exclude, onPick }: { exclude: number[]; onPick: (r: AdminReleaseRow) => void }) {
  const t = useAdminT();
  const [q, setQ] = useState('');
  const [term, setTerm] = useState<string | null>(null);
  const found = useQuery({
    queryKey: ['admin', 'release-pick', term],
    queryFn: () => adminData<Page<AdminReleaseRow>>(AdminPaths.releasesList, { q: term ?? '', pageNum: 1, pageSize: 20 }),
    enabled: term !== null,
  });
  return (
    <div data-testid="admin-compose-pick">
      <div className="flex gap-2">
        <input
          className="field-input h-9 max-w-xs"
          value={q}
          placeholder={`${t('compose.ingredient')} · ${t('releases.searchPlaceholder')}`}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              setTerm(q.trim());
            }
          }}
          data-testid="admin-compose-pick-q"
        />
        <button type="button" className="btn-ghost h-9 shrink-0 whitespace-nowrap" onClick={() => setTerm(q.trim())}>
          {t('compose.addIngredient')}
        </button>
      </div>
      {term !== null && found.data && (
        <ul className="mt-2 max-h-48 divide-y divide-line overflow-y-auto rounded border border-line">
          {found.data.list.filter((r) => !exclude.includes(r.id)).length === 0 && <li className="px-3 py-2 text-ink-faint">{t('catalog.noMatch')}</li>}
          {found.data.list
            .filter((r) => !exclude.includes(r.id))
            .map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  className="w-full px-3 py-2 text-left hover:bg-canvas"
                  onClick={() => {
                    onPick(r);
                    setTerm(null);
                    setQ('');
                  }}
                  data-testid="admin-compose-pick-option"
                >
                  #{r.id} {r.name}
                </button>
              </li>
            ))}
        </ul>
      )}
    </div>
  );
}
