/**
 * The wallet gate of the chain flows (market listing, goods flows): why the linked wallet cannot be
 * used right now, and what a flow gets when it can. Pure (no wallet code), so the flows that only
 * name these types stay light.
 */
/** Why the wallet cannot be used for a flow right now. */
export type WalletGate = 'needLogin' | 'noWallet' | 'notConnected' | 'unavailable' | 'otherAccount';

export class WalletGateError extends Error {
  constructor(readonly gate: WalletGate) {
    super(`wallet gate: ${gate}`);
    this.name = 'WalletGateError';
  }
}

/** Minimal provider type (lib/wallet/provider.ts's ConfluxProvider is structurally the same). */
export interface FlowProvider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}

export interface LinkedWallet {
  provider: FlowProvider;
  /** The wallet's account (as the wallet spells it) = the account's linked address. */
  address: string;
}

