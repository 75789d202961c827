/** Sends a verification code by SMS. `type` is the spec's SMS type ('1' register, '2' login, '3' forgot, '4' security; '5' the new phone of a phone change). */
export interface SmsProvider {
  readonly name: 'sandbox' | 'aliyun';
  send(msg: { mobile: string; type: string; code: string }): Promise<void>;
}
