/** Sends a verification code by SMS. `type` is the spec's SMS type ('1' register, '2' login, '3' forgot, '4' security; '5' the new phone of a phone change). */
export interface SmsProvider {
  readonly name: 'sandbox' | 'aliyun';
  send(msg: { mobile: string; type: string; code: string }): Promise<void>;
  /**
   * Sends message-center notices (modules/messages/send-message-sms.ts): each notice's `template` names
   * it (a message kind, or lottery_won / lottery_lost), `params` are its rendered values, `text` the
   * whole rendered Chinese text. One outcome per notice, in order: 'sent', 'skipped' (the provider
   * has no template for it) or the Error that sending it met; the others are not held back by it.
   */
  notify(notices: readonly SmsNotice[]): Promise<SmsOutcome[]>;
}

export interface SmsNotice {
  mobile: string;
  userId: number;
  messageId: number;
  template: string;
  params: Record<string, string>;
  text: string;
}

/** What became of one notice: sent, skipped (no template for it), or the error that sending met. */
export type SmsOutcome = 'sent' | 'skipped' | Error;
