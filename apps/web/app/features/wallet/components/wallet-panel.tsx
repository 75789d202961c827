import { useEffect, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from '../../../i18n/index.ts';
import { getChainInfo } from '../../../lib/chain-info.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { toast } from '../../../stores/toast.ts';
import { useUserStore } from '../../../stores/user.ts';
import { useWalletStore } from '../../../stores/wallet.ts';
import { walletLogout } from '../api/wallet-logout.ts';
import { revokeDevWallet } from '../../../lib/wallet/dev-wallet/keys.ts';
import { DevWalletBadge } from './dev-wallet-badge.tsx';

/**
 * The dev wallet's "wallet home" (the header wallet icon opens it; Fluent users get fluentwallet.com):
 * address, network, copy address, disconnect (walletlogout — the link stays, this session is
 * disconnected and the dev wallet's site authorisation is revoked).
 */
export function DevWalletPanel() {
  const { t } = useTranslation();
  const open = useWalletStore((s) => s.panelOpen);
  const closePanel = useWalletStore((s) => s.closePanel);
  const address = useUserStore((s) => s.walletAddress);
  const [networkId, setNetworkId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    void getChainInfo().then((info) => setNetworkId(info?.networkId ?? null));
  }, [open]);

  const copy = async () => {
    if (await copyText(address)) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };

  const disconnect = async () => {
    setBusy(true);
    const r = await walletLogout();
    setBusy(false);
    if (!r.ok) return; // the api client showed the reason
    revokeDevWallet();
    const user = useUserStore.getState();
    user.setWallet(user.walletAddress, false);
    closePanel();
    toast.success(t('wallet.disconnected'));
  };

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && closePanel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[200] bg-black/30" />
        <Dialog.Content
          data-testid="wallet-panel"
          aria-describedby={undefined}
          className="fixed right-[max(0.75rem,calc((100vw-77rem)/2+1rem))] top-[calc(var(--spacing-header)+0.5rem)] z-[201] w-[min(380px,calc(100vw-1.5rem))] rounded-card bg-surface p-5 shadow-pop"
        >
          <div className="mb-4 flex items-start justify-between">
            <Dialog.Title className="flex items-center gap-2 text-lg font-semibold text-ink">
              {t('wallet.panelTitle')} <DevWalletBadge />
            </Dialog.Title>
            <Dialog.Close className="-mr-2 rounded px-2 text-2xl leading-none text-ink-faint hover:text-ink" aria-label={t('common.close')} data-testid="wallet-panel-close">
              ×
            </Dialog.Close>
          </div>
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="text-xs text-ink-faint">{t('wallet.address')}</dt>
              <dd className="break-all font-mono text-[13px] text-ink" data-testid="wallet-panel-address">
                {address}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-ink-faint">{t('wallet.network')}</dt>
              <dd className="text-ink" data-testid="wallet-panel-network">
                {networkId === null ? '—' : t('wallet.networkValue', { id: networkId })}
              </dd>
            </div>
          </dl>
          <p className="mt-3 rounded-control bg-warning/10 px-3 py-2 text-xs text-amber-800">{t('wallet.panelNote')}</p>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className="btn-ghost" data-testid="wallet-panel-copy" onClick={() => void copy()}>
              {t('wallet.copyAddress')}
            </button>
            <button type="button" className="btn-primary" data-testid="wallet-panel-disconnect" disabled={busy} onClick={() => void disconnect()}>
              {t('wallet.disconnect')}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
