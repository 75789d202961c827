import { useLocation } from 'react-router';
import type { AdminPermission } from '@cfx/contract/admin-rules.ts';
import { AdminPage } from '../features/admin/components/ui.tsx';
import { useAdminT, type AdminKey } from '../features/admin/i18n.ts';

/**
 * The navigation slots a console extension fills (docs/admin.md "Extending"): /admin/releases,
 * /admin/news and /admin/banners route here until their own modules replace this one in
 * routes.ts. It says so plainly instead of pretending to be an editor.
 */
const SLOTS: Record<string, { title: AdminKey; permission: AdminPermission }> = {
  '/admin/releases': { title: 'slot.releasesTitle', permission: 'catalog.edit' },
  '/admin/news': { title: 'slot.newsTitle', permission: 'content.edit' },
  '/admin/banners': { title: 'slot.bannersTitle', permission: 'content.edit' },
};

export default function AdminSlot() {
  const t = useAdminT();
  const { pathname } = useLocation();
  const slot = SLOTS[pathname.replace(/\/$/, '')] ?? SLOTS['/admin/releases']!;
  return (
    <AdminPage title={t(slot.title)} permission={slot.permission} testId="admin-slot">
      <p className="card p-8 text-center text-ink-faint" data-testid="admin-slot-pending">
        {t('common.slotPending')}
      </p>
    </AdminPage>
  );
}
