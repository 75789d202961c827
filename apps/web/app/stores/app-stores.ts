/**
 * The root's UI stores that lazy feature chunks use (login overlay, wallet dialog), re-exported
 * together with the UI store on purpose: the three share one small chunk that `/` loads, and a lazy
 * chunk importing only some of them would make the bundler split that chunk in three (more requests
 * and bytes for `/`). Features import them from here, not from the single store modules.
 */
export { useAuthOverlay } from './auth-overlay.ts';
export { useUiStore } from './ui.ts';
export { useWalletStore } from './wallet.ts';
