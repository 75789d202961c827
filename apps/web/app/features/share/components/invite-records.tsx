import { useTranslation } from '../../../i18n/index.ts';
import { formatCnDateTime } from '../../../components/ui/cn-time.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import type { InviteRecordsPage } from '../api/list-invite-records.ts';

/** The users I invited (masked phone, nickname, registered at, real-name yes/no), paged by ?page=. */
export function InviteRecords({ data, page, pageSize }: { data: InviteRecordsPage; page: number; pageSize: number }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="invite-records-title" id="invite-records" data-testid="invite-records">
      <h2 id="invite-records-title" className="mb-3 text-base font-semibold text-ink">
        {t('invite.records')}
      </h2>
      {data.list.length === 0 ? (
        <p className="rounded-control bg-canvas p-6 text-center text-sm text-ink-faint" data-testid="invite-records-empty">
          {t('invite.recordsEmpty')}
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[520px] text-left text-sm">
            <thead className="border-b border-line text-xs text-ink-faint">
              <tr>
                <th className="py-2 pr-4 font-normal">{t('invite.colMobile')}</th>
                <th className="py-2 pr-4 font-normal">{t('invite.colNickname')}</th>
                <th className="py-2 pr-4 font-normal">{t('invite.colRegisteredAt')}</th>
                <th className="py-2 font-normal">{t('invite.colRealname')}</th>
              </tr>
            </thead>
            <tbody>
              {data.list.map((r, i) => (
                <tr key={`${r.registeredAt}-${i}`} className="border-b border-line/60 last:border-0" data-testid="invite-record">
                  <td className="tabular py-3 pr-4 text-ink" data-testid="invite-record-mobile">
                    {r.mobile}
                  </td>
                  <td className="max-w-[180px] truncate py-3 pr-4 text-ink-soft">{r.nickname}</td>
                  <td className="tabular py-3 pr-4 text-ink-soft">{formatCnDateTime(r.registeredAt, false)}</td>
                  <td className="py-3">
                    <span className={`rounded-full px-2 py-0.5 text-xs ${r.isRealname === '1' ? 'bg-success/10 text-success' : 'bg-canvas text-ink-faint'}`} data-testid="invite-record-realname">
                      {r.isRealname === '1' ? t('invite.realnameDone') : t('invite.realnameNone')}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} total={data.total} pageSize={pageSize} anchor="invite-records" />
      <p className="mt-4 text-xs text-ink-faint">{t('invite.privacyNote')}</p>
    </section>
  );
}
