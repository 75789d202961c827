import { describe, expect, it } from 'vitest';
import { checkSignatureShape, malleateSignature, SECP256K1_HALF_N, SECP256K1_N, splitSignature } from '../src/signature.ts';

const r = '11'.repeat(32);
const lowS = (SECP256K1_HALF_N - 5n).toString(16).padStart(64, '0');
const sig = (s: string, v: number) => `0x${r}${s}${v.toString(16).padStart(2, '0')}`;

describe('signature shape', () => {
  it('splits r, s, v', () => {
    expect(splitSignature(sig(lowS, 1))).toEqual({ r: `0x${r}`, s: `0x${lowS}`, v: 1 });
    expect(() => splitSignature('0x1234')).toThrow();
  });

  it('accepts v in {0,1,27,28} with low s', () => {
    for (const v of [0, 1, 27, 28]) expect(checkSignatureShape(sig(lowS, v))).toBeNull();
  });

  it('flags bad length, v, high s and zero values', () => {
    expect(checkSignatureShape(sig(lowS, 1).slice(0, -2))).toBe('length');
    expect(checkSignatureShape(`${sig(lowS, 1)}00`)).toBe('length');
    expect(checkSignatureShape(sig(lowS, 2))).toBe('v');
    expect(checkSignatureShape(sig(lowS, 29))).toBe('v');
    expect(checkSignatureShape(sig((SECP256K1_HALF_N + 1n).toString(16), 0))).toBe('high-s');
    expect(checkSignatureShape(sig('00'.repeat(32), 0))).toBe('zero');
  });

  it('malleates into the high-s twin and back', () => {
    const original = sig(lowS, 0);
    const twin = malleateSignature(original);
    expect(BigInt(splitSignature(twin).s)).toBe(SECP256K1_N - BigInt(`0x${lowS}`));
    expect(splitSignature(twin).v).toBe(1);
    expect(checkSignatureShape(twin)).toBe('high-s');
    expect(malleateSignature(twin)).toBe(original);
    expect(splitSignature(malleateSignature(sig(lowS, 27))).v).toBe(28);
  });
});
