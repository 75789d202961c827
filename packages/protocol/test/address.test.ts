import crypto from 'node:crypto';
import cfxAddress from '@conflux-dev/conflux-address-js';
import { describe, expect, it } from 'vitest';
import {
  addressCodecStats,
  isBase32Address,
  isHexAddress,
  isMainnetAddress,
  networkIdOf,
  sameAddress,
  shortenAddress,
  toBase32Address,
  toHexAddress,
  ZERO_HEX_ADDRESS,
} from '../src/address.ts';

// Mainnet vector from the CIP-37 specification; the testnet form is the same account on network 1.
const HEX = '0x106d49f8505410eb4e671d51f7d96d2c87807b09';
const MAIN = 'cfx:aajg4wt2mbmbb44sp6szd783ry0jtad5bea80xdy7p';
const TEST = 'cfxtest:aajg4wt2mbmbb44sp6szd783ry0jtad5bemzfdf83g';
const MAIN_VERBOSE = 'CFX:TYPE.USER:AAJG4WT2MBMBB44SP6SZD783RY0JTAD5BEA80XDY7P';

describe('address helpers', () => {
  it('converts hex <-> base32 (CIP-37)', () => {
    expect(toBase32Address(HEX)).toBe(MAIN);
    expect(toBase32Address(HEX, 1)).toBe(TEST);
    expect(toBase32Address(HEX, 1029, true)).toBe(MAIN_VERBOSE);
    expect(toHexAddress(MAIN)).toBe(HEX);
    expect(toHexAddress(TEST)).toBe(HEX);
    expect(toHexAddress(MAIN_VERBOSE)).toBe(HEX);
    expect(toHexAddress(HEX.toUpperCase().replace('0X', '0x'))).toBe(HEX);
    expect(toBase32Address(TEST, 1029)).toBe(MAIN);
  });

  it('computes one checksum for a new address decoded and then encoded again for its network', () => {
    // A buyer's address on its way: decoded for the mint transaction, encoded again from the Transfer log's hex.
    const hex = `0x1${crypto.randomBytes(20).toString('hex').slice(1)}`;
    for (const netId of [1029, 1]) {
      const b32 = cfxAddress.encode(hex, netId) as string;
      const before = { ...addressCodecStats };
      expect(toHexAddress(b32)).toBe(hex);
      expect(toBase32Address(hex, netId)).toBe(b32);
      expect(toBase32Address(hex, netId, true)).toBe((cfxAddress.encode(hex, netId, true) as string));
      expect(addressCodecStats.decodes - before.decodes).toBe(1);
      expect(addressCodecStats.encodes - before.encodes).toBe(1); // the verbose form only
    }
    // A verbose or upper-case input is not the canonical form: its hex's encoding is computed, not taken from it.
    const hex2 = `0x1${crypto.randomBytes(20).toString('hex').slice(1)}`;
    const upper = (cfxAddress.encode(hex2, 1029) as string).toUpperCase();
    expect(toHexAddress(upper)).toBe(hex2);
    expect(toBase32Address(hex2)).toBe(upper.toLowerCase());
  });

  it('recognises mainnet addresses only (network 1029, cfx: prefix)', () => {
    expect(isMainnetAddress(MAIN)).toBe(true);
    expect(isMainnetAddress(MAIN_VERBOSE)).toBe(true);
    expect(isMainnetAddress(TEST)).toBe(false);
    expect(isMainnetAddress(HEX)).toBe(false);
    expect(isMainnetAddress(`${MAIN.slice(0, -1)}q`)).toBe(false); // bad checksum
    expect(isMainnetAddress(undefined)).toBe(false);
    expect(networkIdOf(MAIN)).toBe(1029);
    expect(networkIdOf(TEST)).toBe(1);
  });

  it('validates formats', () => {
    expect(isHexAddress(HEX)).toBe(true);
    expect(isHexAddress('0x123')).toBe(false);
    expect(isBase32Address(MAIN)).toBe(true);
    expect(isBase32Address(HEX)).toBe(false);
    expect(() => toHexAddress('cfx:invalid')).toThrow(/invalid Conflux address/);
    expect(() => toHexAddress('')).toThrow();
  });

  it('compares and shortens', () => {
    expect(sameAddress(MAIN, HEX)).toBe(true);
    expect(sameAddress(TEST, MAIN)).toBe(true);
    expect(sameAddress(MAIN, ZERO_HEX_ADDRESS)).toBe(false);
    expect(sameAddress('garbage', MAIN)).toBe(false);
    expect(shortenAddress(MAIN)).toBe('cfx:aajg…dy7p');
    expect(shortenAddress(HEX, 6, 4)).toBe('0x106d49…7b09');
  });
});
