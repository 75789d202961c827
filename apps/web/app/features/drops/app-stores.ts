/**
 * The root's UI stores the buy box uses (login overlay, wallet dialog), re-exported together with
 * the UI store on purpose — see features/orders/app-stores.ts: the three share one small chunk.
 */
export { useAuthOverlay } from '../../stores/auth-overlay.ts';
export { useUiStore } from '../../stores/ui.ts';
export { useWalletStore } from '../../stores/wallet.ts';
