import type { PaymentProvider } from '../../providers/payment/types.ts';
import type { SandboxProvider } from '../../providers/payment/sandbox.ts';
import type { WechatProvider } from '../../providers/payment/wechat.ts';
import type { SettlementChain, TokenEvent } from './settlement-chain.ts';

/** The market's live parts, on ctx.market: the chain behind SettlementChain and the payment providers. */
export interface MarketRuntime {
  settlement?: SettlementChain;
  /** wechat: the WeChat Pay adapter (WECHATPAY_MCH_ID) or, with PAYMENT_SANDBOX=1, the WeChat Pay sandbox. */
  providers: { sandbox?: SandboxProvider; alipay?: PaymentProvider; wechat?: WechatProvider };
  /** Moves a paid order to settling with its operator transaction (batched; attached by flows/settle-orders.ts). Returns the previous status or null. */
  markSettling?: (orderNo: string, txId: number) => Promise<string | null>;
  /** Shifts and gifts (modules/shift) follow indexed transfers here: attached by flows/join-orders.ts. */
  onIndexedTransfers?: (transfers: TokenEvent[]) => Promise<void>;
  /** Completes a settled order (batched: many per database transaction). */
  complete?: (orderNo: string, txHash: string | null) => Promise<boolean>;
  /** Resolves when the operator transaction `txId` is done (or after `timeoutMs`). */
  waitTx(txId: number, timeoutMs: number): Promise<void>;
  /** Replaces the chain side (tests plug a double in here) and subscribes to its events. */
  attachSettlement(s: SettlementChain | undefined): void;
  /** Base URL the providers post notifies to (PAYMENT_NOTIFY_BASE_URL, else this server on loopback). */
  notifyBaseUrl(): string | undefined;
  stop(): Promise<void>;
}

declare module '../../context.ts' {
  interface AppContext {
    /** The consignment market's chain side and payment providers (modules/market/start-market.ts). */
    market?: MarketRuntime;
  }
}
