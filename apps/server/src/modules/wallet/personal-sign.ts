import { PersonalMessage, format, sign } from 'js-conflux-sdk';
import { MAINNET_NETWORK_ID } from '@cfx/protocol/address.ts';

/**
 * The base32 (network 1029) address that signed `message` with Conflux `personal_sign`
 * ("\x19Conflux Signed Message:\n" + byte length + message), or undefined for a malformed
 * signature. Accepts v as 0/1 (Conflux) or 27/28 (Ethereum style).
 */
export function recoverPersonalSigner(message: string, signature: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  let v = parseInt(signature.slice(130), 16);
  if (v >= 27) v -= 27;
  if (v !== 0 && v !== 1) return undefined;
  const normalized = signature.slice(0, 130) + (v === 0 ? '00' : '01');
  try {
    const publicKey = PersonalMessage.recover(normalized, message);
    return format.address(sign.publicKeyToAddress(format.hexBuffer(publicKey)), MAINNET_NETWORK_ID);
  } catch {
    return undefined;
  }
}
