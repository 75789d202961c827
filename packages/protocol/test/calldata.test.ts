import { describe, expect, it } from 'vitest';
import { approveCalldata, cancelOrderCalldata, selector, transferFromCalldata } from '../src/calldata.ts';

describe('calldata of the wallet-sent calls', () => {
  it('computes the selectors every ERC-721 tool knows', () => {
    expect(selector('approve(address,uint256)')).toBe('0x095ea7b3');
    expect(selector('transferFrom(address,address,uint256)')).toBe('0x23b872dd');
    expect(selector('transfer(address,uint256)')).toBe('0xa9059cbb');
  });

  it('lays out words and strings', () => {
    const to = '0x1' + 'a'.repeat(39);
    expect(approveCalldata(to, '255')).toBe(`0x095ea7b3${'0'.repeat(24)}${to.slice(2)}${'0'.repeat(62)}ff`);
    expect(transferFromCalldata(to, to, '1').length).toBe(2 + 8 + 64 * 3);
    const c = cancelOrderCalldata('SO1');
    expect(c.slice(10, 74)).toBe('0'.repeat(62) + '20');
    expect(c.slice(74, 138)).toBe('0'.repeat(63) + '3');
    expect(c.slice(138)).toBe('534f31' + '0'.repeat(58));
  });

  it('refuses malformed input', () => {
    expect(() => approveCalldata('0x12', '1')).toThrow(TypeError);
    expect(() => approveCalldata('0x1' + 'a'.repeat(39), '-1')).toThrow(TypeError);
    expect(() => cancelOrderCalldata('买')).toThrow(TypeError);
  });
});
