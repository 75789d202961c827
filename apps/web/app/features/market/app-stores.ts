/**
 * The root's UI stores this feature uses (login overlay, wallet dialog), re-exported together with
 * the UI store on purpose: the three share one small chunk that `/` loads, and a lazy chunk
 * importing only some of them would make the bundler split that chunk in three (more requests and
 * bytes for `/`). Import them from here, not from stores/ directly.
 */
export { useAuthOverlay } from '../../stores/auth-overlay.ts';
export { useUiStore } from '../../stores/ui.ts';
export { useWalletStore } from '../../stores/wallet.ts';
