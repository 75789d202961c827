/** Sends a verification code by SMS. `type` is the spec's SMS type ('1' register, '2' login, '3' forgot, '4' security; '5' the new phone of a phone change). */
export interface SmsProvider {
  readonly name: 'sandbox' | 'aliyun';
  send(msg: { mobile: string; type: string; code: string }): Promise<void>;
  /**
   * Sends a message-center notice (modules/messages/send-message-sms.ts): `template` names the notice
   * (a message kind, or lottery_won / lottery_lost), `params` are its rendered values, `text` the whole
   * rendered Chinese text. 'skipped' when the provider has no template for it. Throws when sending failed.
   */
  notify(msg: SmsNotice): Promise<'sent' | 'skipped'>;
}

export interface SmsNotice {
  mobile: string;
  userId: number;
  messageId: number;
  template: string;
  params: Record<string, string>;
  text: string;
}
