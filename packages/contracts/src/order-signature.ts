// Sign and verify CIP-23 listOrders in Node (server, dev wallet, tests) with js-conflux-sdk.
//
// js-conflux-sdk 2.x has no typed-data signer: the digest comes from @cfx/protocol
// (listOrderDigest) and Message.sign signs the 32-byte digest as is (no prefix),
// giving r ‖ s ‖ v with v = 0/1 and a low s — exactly what Fluent's
// cfx_signTypedData_v4 returns for the same typed data.
import { Message, sign as sdkSign } from 'js-conflux-sdk';
import { toBase32Address, toHexAddress, type HexAddress } from '@cfx/protocol/address.ts';
import { listOrderDigest, type Cip23Domain, type ListOrder } from '@cfx/protocol/cip23.ts';
import { checkSignatureShape } from '@cfx/protocol/signature.ts';

/** Sign a listOrder with a private key (0x-hex); returns the 65-byte signature (v = 0/1). */
export function signListOrder(privateKey: string, order: ListOrder, domain: Cip23Domain): `0x${string}` {
  const key = privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`;
  return Message.sign(key, listOrderDigest(order, domain)) as `0x${string}`;
}

/**
 * Hex address (0x1…) that signed `order`, or null when the signature is malformed,
 * malleable (high s) or does not recover. Same rules as Exchange._recover.
 */
export function recoverListOrderSigner(signature: string, order: ListOrder, domain: Cip23Domain): HexAddress | null {
  if (checkSignatureShape(signature) !== null) return null;
  const v = parseInt(signature.slice(130, 132), 16);
  const normalized = `${signature.slice(0, 130)}${(v >= 27 ? v - 27 : v).toString(16).padStart(2, '0')}`;
  try {
    const publicKey = Message.recover(normalized, listOrderDigest(order, domain));
    const address = sdkSign.publicKeyToAddress(Buffer.from(publicKey.slice(2), 'hex'));
    return `0x${address.toString('hex')}` as HexAddress;
  } catch {
    return null;
  }
}

/** True when `signature` is the seller's valid signature of `order` under `domain`. */
export function verifyListOrder(signature: string, order: ListOrder, domain: Cip23Domain): boolean {
  const signer = recoverListOrderSigner(signature, order, domain);
  return signer !== null && signer === toHexAddress(order.seller);
}

/** Base32 address of a private key on `networkId` (default 1029). */
export function addressOfPrivateKey(privateKey: string, networkId = 1029): string {
  const key = privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`;
  const address = sdkSign.privateKeyToAddress(Buffer.from(key.slice(2), 'hex'));
  return toBase32Address(`0x${address.toString('hex')}`, networkId);
}
