/**
 * Checks the `NECaptchaValidate` value sent with smscode. A token is accepted once:
 * verify() consumes it.
 */
export interface CaptchaProvider {
  readonly name: 'slider' | 'yidun' | 'test';
  verify(token: string): Promise<boolean>;
}
