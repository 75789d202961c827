/**
 * The real dependencies of the goods flows (API calls + the linked wallet), loaded lazily with the
 * flow dialogs. The linked wallet and its gates: lib/wallet/linked-wallet.ts, shared with the market's flows.
 */
import type { Cip23TypedData } from '@cfx/protocol/cip23.ts';
import { WalletGateError } from '../wallet/gate.ts';
import { linkedWallet } from '../wallet/linked-wallet.ts';
import { walletErrorKey, type ConfluxProvider } from '../wallet/provider.ts';
import { sendTransactionAndWait, signTypedData } from '../wallet/tx.ts';
import * as calls from './calls.ts';
import { transferFromCalldata, type GfDeps } from './flows.ts';

export function goodsFlowDeps(t: GfDeps['t']): GfDeps {
  return {
    t,
    linkedWallet,
    sign: (provider, address, typedData) => signTypedData(provider as ConfluxProvider, address, typedData as unknown as Cip23TypedData<object>),
    async transfer(provider, tx, onSent) {
      const r = await sendTransactionAndWait(provider as ConfluxProvider, { from: tx.from, to: tx.collectible, data: transferFromCalldata(tx.fromHex, tx.toHex, tx.tokenId) }, { onSent });
      return r.status === 'success' ? { status: 'success', hash: r.hash } : r.status === 'failed' ? { status: 'failed', hash: r.hash, reason: r.reason } : { status: 'timeout', hash: r.hash };
    },
    walletErrorText: (err) => t(walletErrorKey(err)),
    gateOf: (err) => (err instanceof WalletGateError ? err.gate : undefined),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    now: () => Date.now(),
    openBox: calls.openBox,
    confirmOpenBox: calls.confirmOpenBox,
    selectFragments: calls.selectFragments,
    confirmCompose: calls.confirmCompose,
    submitCompose: calls.submitCompose,
    listComposeRecords: calls.listComposeRecords,
    startShift: calls.startShift,
    startGift: calls.startGift,
    notifyTransfer: calls.notifyTransfer,
  };
}
