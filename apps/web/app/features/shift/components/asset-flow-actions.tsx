/**
 * The personal center's actions on one of my collectibles besides selling it: open a blind box
 * (once its release is revealed), move it to another address of mine, give it to another user.
 * Given to the asset list as its tile actions by the route (features/personal stays free of them).
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/index.ts';
import { api } from '../../../lib/api.ts';
import { getBoxInfo } from '../../../lib/goods-flow/calls.ts';
import type { GoodsCard } from '../../../lib/goods-flow/types.ts';
import { GoodsFlowHost, type GoodsFlowRequest, type OpenBoxDialogType } from './goods-flow-host.tsx';

/** Box info of a release (null: not a box release), shared by every tile of the release. */
export function useBoxInfo(projectId: number) {
  return useQuery({
    queryKey: ['box-info', projectId],
    queryFn: async () => {
      const r = await getBoxInfo(api, projectId);
      if (!r.ok) throw new Error(r.message || 'box info');
      return r.data;
    },
    staleTime: 30_000,
  });
}

/** `OpenBoxDialog`: the blind-box dialog of features/boxes, handed in by the route (features do not import each other). */
export function AssetFlowActions({ goods: g, OpenBoxDialog }: { goods: GoodsCard; OpenBoxDialog: OpenBoxDialogType }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [request, setRequest] = useState<GoodsFlowRequest | null>(null);
  const box = useBoxInfo(g.projectId);
  if (g.status !== 'held' || g.chainStatus !== 'minted') return null;
  const isBox = Boolean(box.data);
  const revealed = box.data?.status === 'revealed';
  const brief = { id: g.id, name: g.name, image: g.image, projectId: g.projectId };
  return (
    <div className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 text-xs" data-testid="asset-flow-actions" data-box={isBox ? (revealed ? 'revealed' : 'committed') : 'no'}>
      {isBox && (
        <button
          type="button"
          className="font-medium text-brand hover:underline disabled:cursor-not-allowed disabled:text-ink-faint disabled:no-underline"
          disabled={!revealed}
          title={revealed ? undefined : t('boxes.open.notRevealed')}
          onClick={() => setRequest({ kind: 'openBox', goods: brief })}
          data-testid="asset-open-box"
        >
          {revealed ? t('boxes.open.action') : t('boxes.open.waiting')}
        </button>
      )}
      <button type="button" className="text-ink-soft hover:text-brand" onClick={() => setRequest({ kind: 'transfer', mode: 'shift', goods: brief })} data-testid="asset-shift">
        {t('shift.actions.shift')}
      </button>
      <button type="button" className="text-ink-soft hover:text-brand" onClick={() => setRequest({ kind: 'transfer', mode: 'gift', goods: brief })} data-testid="asset-gift">
        {t('shift.actions.gift')}
      </button>
      <GoodsFlowHost
        request={request}
        OpenBoxDialog={OpenBoxDialog}
        onClose={() => setRequest(null)}
        onDone={() => {
          void client.invalidateQueries({ queryKey: ['my-assets'] });
          void client.invalidateQueries({ queryKey: ['collection-head'] });
          void client.invalidateQueries({ queryKey: ['chip-all'] });
        }}
      />
    </div>
  );
}
