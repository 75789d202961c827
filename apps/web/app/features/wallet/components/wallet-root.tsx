import { WalletDialog } from './wallet-dialog.tsx';
import { DevWalletPanel } from './wallet-panel.tsx';

/** The wallet UI chunk, mounted by root.tsx once the dialog or the panel is first opened. */
export default function WalletRoot() {
  return (
    <>
      <WalletDialog />
      <DevWalletPanel />
    </>
  );
}
