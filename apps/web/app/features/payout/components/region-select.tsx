import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { getAreaTree } from '../api/account.ts';

/** Province and city from the static area tree (GET, cached a day). */
export function RegionSelect({ provinceCode, cityCode, onChange, testIdPrefix }: { provinceCode: string; cityCode: string; onChange: (p: string, c: string) => void; testIdPrefix: string }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['area-tree'], queryFn: getAreaTree, staleTime: Infinity });
  const provinces = q.data ?? [];
  const cities = provinces.find((p) => p.code === provinceCode)?.children ?? [];
  const cls = 'field-input';
  return (
    <div className="grid grid-cols-2 gap-2">
      <select className={cls} value={provinceCode} onChange={(e) => onChange(e.target.value, '')} data-testid={`${testIdPrefix}-province`} aria-label={t('payout.account.province')}>
        <option value="">{q.isPending ? t('common.loading') : t('payout.account.province')}</option>
        {provinces.map((p) => (
          <option key={p.code} value={p.code}>{p.name}</option>
        ))}
      </select>
      <select className={cls} value={cityCode} onChange={(e) => onChange(provinceCode, e.target.value)} disabled={!cities.length} data-testid={`${testIdPrefix}-city`} aria-label={t('payout.account.city')}>
        <option value="">{t('payout.account.city')}</option>
        {cities.map((c) => (
          <option key={c.code} value={c.code}>{c.name}</option>
        ))}
      </select>
    </div>
  );
}
