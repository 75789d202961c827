import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths, STAFF_ROLES, STAFF_USERNAME_RE, type StaffRole } from '@cfx/contract/admin-rules.ts';
import type { AdminStaffRow, StaffWithPassword } from '@cfx/contract/admin.ts';
import { Spinner } from '../components/ui/spinner.tsx';
import { copyText } from '../lib/clipboard.ts';
import { adminApi, adminData } from '../features/admin/api.ts';
import { ConfirmDialog, InfoDialog } from '../features/admin/components/dialogs.tsx';
import { AdminPage, Badge, notify, QueryState, Table, td, when } from '../features/admin/components/ui.tsx';
import { useAdminT } from '../features/admin/i18n.ts';
import { useStaffStore } from '../features/admin/session.ts';

type Dialog = { kind: 'roles' | 'reset-totp' | 'reset-password' | 'disable'; staff: AdminStaffRow } | null;

/** Staff accounts (owners): create with a one-time password, roles, reset TOTP or password, disable / enable. */
export default function AdminStaff() {
  const t = useAdminT();
  const me = useStaffStore((s) => s.me)!;
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'staff'], queryFn: () => adminData<AdminStaffRow[]>(AdminPaths.staffList) });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [oneTime, setOneTime] = useState<{ name: string; password: string } | null>(null);
  const [roles, setRoles] = useState<StaffRole[]>([]);

  const refresh = (message: string) => {
    void client.invalidateQueries({ queryKey: ['admin', 'staff'] });
    notify.ok(message);
  };
  const act = async (path: string, staffId: number, body: Record<string, unknown> = {}) => {
    const r = await adminApi<AdminStaffRow | StaffWithPassword>(path, { staffId, ...body });
    if (!r.ok) return r.message;
    refresh(r.message);
    if ('oneTimePassword' in r.data) setOneTime({ name: r.data.staff.username, password: r.data.oneTimePassword });
    return null;
  };

  return (
    <AdminPage title={t('staff.title')} permission="staff.manage" testId="admin-staff">
      <CreateStaff onCreated={(r, message) => {
        refresh(message);
        setOneTime({ name: r.staff.username, password: r.oneTimePassword });
      }} />
      <QueryState q={q}>
        {(list) => (
          <Table head={[t('staff.username'), t('staff.roles'), t('staff.totp'), t('staff.state'), t('staff.lastLogin'), t('staff.createdAt'), t('common.actions')]} testId="admin-staff-table">
            {list.map((s) => (
              <tr key={s.id} data-testid="admin-staff-row" data-username={s.username}>
                <td className={td}>
                  {s.username}
                  {s.id === me.id && <span className="text-ink-faint">{t('staff.you')}</span>}
                </td>
                <td className={td} data-testid="admin-staff-roles">{s.roles.map((r) => t(`roles.${r}`)).join(' / ')}</td>
                <td className={td}>{s.totpEnabled ? <Badge tone="good">{t('staff.totpOn')}</Badge> : <Badge tone="warn">{t('staff.totpOff')}</Badge>}</td>
                <td className={td}>
                  {s.disabledAt ? <Badge tone="bad">{t('staff.disabled')}</Badge> : <Badge tone="good">{t('staff.enabled')}</Badge>}{' '}
                  {s.mustChangePassword && <Badge>{t('staff.mustChange')}</Badge>}
                </td>
                <td className={`${td} tabular whitespace-nowrap`}>{when(s.lastLoginAt)}</td>
                <td className={`${td} tabular whitespace-nowrap`}>{when(s.createdAt)}</td>
                <td className={`${td} whitespace-nowrap`}>
                  <div className="flex flex-wrap gap-2 text-sm">
                    <button type="button" className="text-brand hover:underline" onClick={() => { setRoles(s.roles); setDialog({ kind: 'roles', staff: s }); }} data-testid="admin-staff-edit-roles">
                      {t('staff.editRoles')}
                    </button>
                    <button type="button" className="text-brand hover:underline" onClick={() => setDialog({ kind: 'reset-totp', staff: s })}>
                      {t('staff.resetTotp')}
                    </button>
                    <button type="button" className="text-brand hover:underline" onClick={() => setDialog({ kind: 'reset-password', staff: s })}>
                      {t('staff.resetPassword')}
                    </button>
                    {s.disabledAt ? (
                      <button type="button" className="text-brand hover:underline" onClick={() => void act(AdminPaths.staffEnable, s.id).then((e) => e && notify.fail(e))}>
                        {t('staff.enable')}
                      </button>
                    ) : (
                      s.id !== me.id && (
                        <button type="button" className="text-danger hover:underline" onClick={() => setDialog({ kind: 'disable', staff: s })} data-testid="admin-staff-disable">
                          {t('staff.disable')}
                        </button>
                      )
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </QueryState>

      <ConfirmDialog
        open={dialog?.kind === 'roles'}
        onClose={() => setDialog(null)}
        title={t('staff.editRolesTitle', { name: dialog?.staff.username ?? '' })}
        intro={<RolePicker value={roles} onChange={setRoles} testId="admin-staff-roles-edit" />}
        confirmLabel={t('common.save')}
        testId="admin-staff-roles-dialog"
        onConfirm={async () => (roles.length ? act(AdminPaths.staffRoles, dialog!.staff.id, { roles }) : t('staff.pickRoles'))}
      />
      <ConfirmDialog
        open={dialog?.kind === 'reset-totp'}
        onClose={() => setDialog(null)}
        title={t('staff.resetTotpTitle', { name: dialog?.staff.username ?? '' })}
        intro={t('staff.resetTotpIntro')}
        confirmLabel={t('staff.resetTotp')}
        danger
        testId="admin-staff-totp-dialog"
        onConfirm={() => act(AdminPaths.staffResetTotp, dialog!.staff.id)}
      />
      <ConfirmDialog
        open={dialog?.kind === 'reset-password'}
        onClose={() => setDialog(null)}
        title={t('staff.resetPasswordTitle', { name: dialog?.staff.username ?? '' })}
        intro={t('staff.resetPasswordIntro')}
        confirmLabel={t('staff.resetPassword')}
        danger
        testId="admin-staff-password-dialog"
        onConfirm={() => act(AdminPaths.staffResetPassword, dialog!.staff.id)}
      />
      <ConfirmDialog
        open={dialog?.kind === 'disable'}
        onClose={() => setDialog(null)}
        title={t('staff.disableTitle', { name: dialog?.staff.username ?? '' })}
        intro={t('staff.disableIntro')}
        confirmLabel={t('staff.disable')}
        danger
        testId="admin-staff-disable-dialog"
        onConfirm={() => act(AdminPaths.staffDisable, dialog!.staff.id)}
      />
      <InfoDialog open={oneTime !== null} onClose={() => setOneTime(null)} title={t('staff.oneTimeTitle')} testId="admin-onetime-dialog">
        <p className="mb-3 text-sm text-ink-soft">{t('staff.oneTimeIntro', { name: oneTime?.name ?? '' })}</p>
        <div className="flex items-center gap-2">
          <code className="flex-1 select-all rounded bg-canvas px-3 py-2 font-mono text-base tracking-wider text-ink" data-testid="admin-onetime-password">
            {oneTime?.password}
          </code>
          <button type="button" className="btn-ghost h-9" onClick={() => void copyText(oneTime?.password ?? '').then((ok) => ok && notify.ok(t('common.copied')))}>
            {t('common.copy')}
          </button>
        </div>
      </InfoDialog>
    </AdminPage>
  );
}

function RolePicker({ value, onChange, testId }: { value: StaffRole[]; onChange: (r: StaffRole[]) => void; testId: string }) {
  const t = useAdminT();
  return (
    <div className="flex flex-wrap gap-3" data-testid={testId}>
      {STAFF_ROLES.map((r) => (
        <label key={r} className="flex items-center gap-1.5 text-sm text-ink">
          <input
            type="checkbox"
            checked={value.includes(r)}
            onChange={(e) => onChange(e.target.checked ? [...value, r] : value.filter((x) => x !== r))}
            data-testid={`${testId}-${r}`}
          />
          {t(`roles.${r}`)}
        </label>
      ))}
    </div>
  );
}

function CreateStaff({ onCreated }: { onCreated: (r: StaffWithPassword, message: string) => void }) {
  const t = useAdminT();
  const [username, setUsername] = useState('');
  const [roles, setRoles] = useState<StaffRole[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const name = username.trim().toLowerCase();
    if (!STAFF_USERNAME_RE.test(name)) return setError(t('staff.usernameRule'));
    if (!roles.length) return setError(t('staff.pickRoles'));
    setBusy(true);
    setError('');
    const r = await adminApi<StaffWithPassword>(AdminPaths.staffCreate, { username: name, roles });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    setUsername('');
    setRoles([]);
    onCreated(r.data, r.message);
  };
  return (
    <form className="card mb-5 p-5" onSubmit={(e) => void submit(e)} noValidate data-testid="admin-staff-create">
      <h2 className="mb-3 text-sm font-semibold text-ink">{t('staff.createTitle')}</h2>
      <div className="flex flex-wrap items-start gap-4">
        <label className="text-sm">
          <span className="mb-1 block text-ink-soft">{t('staff.username')}</span>
          <input className="field-input h-10 w-56" value={username} onChange={(e) => setUsername(e.target.value)} data-testid="admin-staff-username" />
          <span className="mt-1 block text-xs text-ink-faint">{t('staff.usernameRule')}</span>
        </label>
        <div className="text-sm">
          <span className="mb-2 block text-ink-soft">{t('staff.roles')}</span>
          <RolePicker value={roles} onChange={setRoles} testId="admin-staff-new-roles" />
        </div>
        <button type="submit" className="btn-primary mt-6" disabled={busy} data-testid="admin-staff-create-submit">
          {busy && <Spinner />} {t('staff.create')}
        </button>
      </div>
      {error && (
        <p className="mt-3 text-sm text-danger" role="alert" data-testid="admin-staff-create-error">
          {error}
        </p>
      )}
    </form>
  );
}
