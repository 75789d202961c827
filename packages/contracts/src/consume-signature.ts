// Sign and verify CIP-23 Consume messages (compose / blind box consent) in Node (server,
// dev wallet, tests) with js-conflux-sdk — the same scheme as order-signature.ts:
// the digest comes from @cfx/protocol (consumeDigest) and Message.sign signs the 32 bytes
// as is, giving r ‖ s ‖ v with v = 0/1 and a low s, what Fluent's cfx_signTypedData_v4
// returns for consumeTypedData(c, collectibleDomain(1029, collectible)).
import { Message, sign as sdkSign } from 'js-conflux-sdk';
import { toHexAddress, type HexAddress } from '@cfx/protocol/address.ts';
import type { Cip23Domain } from '@cfx/protocol/cip23.ts';
import { consumeDigest, type Consume } from '@cfx/protocol/consume.ts';
import { checkSignatureShape } from '@cfx/protocol/signature.ts';

/** Sign a Consume with a private key (0x-hex); returns the 65-byte signature (v = 0/1). */
export function signConsume(privateKey: string, consume: Consume, domain: Cip23Domain): `0x${string}` {
  const key = privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`;
  return Message.sign(key, consumeDigest(consume, domain)) as `0x${string}`;
}

/**
 * Hex address (0x1…) that signed `consume`, or null when the signature is malformed,
 * malleable (high s) or does not recover. Same rules as Collectible._recover.
 */
export function recoverConsumeSigner(signature: string, consume: Consume, domain: Cip23Domain): HexAddress | null {
  if (checkSignatureShape(signature) !== null) return null;
  const v = parseInt(signature.slice(130, 132), 16);
  const normalized = `${signature.slice(0, 130)}${(v >= 27 ? v - 27 : v).toString(16).padStart(2, '0')}`;
  try {
    const publicKey = Message.recover(normalized, consumeDigest(consume, domain));
    const address = sdkSign.publicKeyToAddress(Buffer.from(publicKey.slice(2), 'hex'));
    return `0x${address.toString('hex')}` as HexAddress;
  } catch {
    return null;
  }
}

/** True when `signature` is the holder's valid signature of `consume` under `domain`. */
export function verifyConsume(signature: string, consume: Consume, domain: Cip23Domain): boolean {
  const signer = recoverConsumeSigner(signature, consume, domain);
  return signer !== null && signer === toHexAddress(consume.owner);
}
