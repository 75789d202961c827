import { useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import type { DialogGoods, MarketDialogRequest } from '../dialog-request.ts';
import { MarketDialogHost } from './market-dialog-host.tsx';

/** Off shelf from a list (personal center → my sale): closeSale → approve(0) in the wallet, in the market dialog. */
export function OffShelfButton({ goods, onDone }: { goods: DialogGoods; onDone: () => void }) {
  const { t } = useTranslation();
  const [request, setRequest] = useState<MarketDialogRequest | null>(null);
  return (
    <>
      <button type="button" className="btn-ghost h-8 px-3 text-xs" onClick={() => setRequest({ kind: 'offShelf', goods })} data-testid="row-off-shelf">
        {t('market.offShelf')}
      </button>
      <MarketDialogHost request={request} onClose={() => setRequest(null)} onDone={onDone} />
    </>
  );
}

/** Agree to a bid from a list (personal center → counter bids): approve → sign → agreeBargin, in the market dialog. */
export function AgreeBidButton({ goods, bid, onDone }: { goods: DialogGoods; bid: { id: number; amountFen: number; bidderNickname: string }; onDone: () => void }) {
  const { t } = useTranslation();
  const [request, setRequest] = useState<MarketDialogRequest | null>(null);
  return (
    <>
      <button type="button" className="btn-primary h-8 px-3 text-xs" onClick={() => setRequest({ kind: 'agree', goods, bid })} data-testid="row-agree">
        {t('market.bids.agree')}
      </button>
      <MarketDialogHost request={request} onClose={() => setRequest(null)} onDone={onDone} />
    </>
  );
}
