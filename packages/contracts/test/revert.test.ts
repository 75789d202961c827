// Revert data named and decoded with js-conflux-sdk's ABI coder (no chain needed).
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../src/artifacts.ts';
import { decodeRevert, errorSelectors } from '../src/revert.ts';

const word = (hex: string) => hex.padStart(64, '0');
const errorString = (msg: string) => {
  const hex = Buffer.from(msg, 'utf8').toString('hex');
  return `0x08c379a0${word('20')}${word(Buffer.byteLength(msg).toString(16))}${hex.padEnd(Math.ceil(hex.length / 64) * 64, '0')}`;
};

describe('revert decoding', () => {
  it('knows the built-in selectors and every custom error of both contracts', async () => {
    const [c, e] = await Promise.all([loadArtifact('Collectible'), loadArtifact('Exchange')]);
    const selectors = errorSelectors(c.abi, e.abi);
    // The well-known selectors of Error(string) and Panic(uint256).
    expect(selectors.get('0x08c379a0')).toBe('Error');
    expect(selectors.get('0x4e487b71')).toBe('Panic');
    const names = new Set([...c.abi, ...e.abi].filter((i) => i.type === 'error').map((i) => i.name));
    expect(new Set([...selectors.values()])).toEqual(new Set(['Error', 'Panic', 'OrderAlreadyFilled', ...names]));
    for (const n of ['InvalidSigner', 'SellerOrderIdUsed', 'BuyerOrderIdUsed']) expect(names.has(n), n).toBe(true);
    // An Exchange deployed before the per-hash fill flag was dropped still reverts OrderAlreadyFilled(bytes32).
    expect(names.has('OrderAlreadyFilled')).toBe(false);
    // keccak256("OrderAlreadyFilled(bytes32)")[0:4]
    expect(selectors.get('0x10fda3e1')).toBe('OrderAlreadyFilled');
    // OpenZeppelin's published selector of ERC721NonexistentToken(uint256).
    expect(selectors.get('0x7e273289')).toBe('ERC721NonexistentToken');
  });

  it('selectors of tuple and array parameters use the canonical signature', () => {
    const abi = [{ type: 'error', name: 'X', inputs: [{ name: 'o', type: 'tuple[]', components: [{ name: 'a', type: 'address' }, { name: 'b', type: 'uint256[2]' }] }, { name: 'c', type: 'bytes32' }] }];
    // keccak256("X((address,uint256[2])[],bytes32)")[0:4]
    expect([...errorSelectors(abi).entries()].find(([, n]) => n === 'X')?.[0]).toBe('0x507eccf7');
  });

  it('decodes an Error(string) message (UTF-8), names unknown and empty reverts', () => {
    const selectors = errorSelectors();
    expect(decodeRevert(errorString('余额不足 / too low'), selectors)).toMatchObject({ name: 'Error', selector: '0x08c379a0', message: '余额不足 / too low' });
    expect(decodeRevert('0x08c379a0', selectors)).toMatchObject({ name: 'Error', message: undefined });
    expect(decodeRevert('0xDEADBEEF00', selectors)).toMatchObject({ name: 'Unknown', selector: '0xdeadbeef' });
    expect(decodeRevert('0x', selectors)).toEqual({ name: 'Unknown', selector: '', data: '0x' });
  });
});
