/** The chain-record piece's pure parts: event labels, the zero address, date and address formats. */
import { describe, expect, it } from 'vitest';
import { toBase32Address, ZERO_HEX_ADDRESS } from '@cfx/protocol/address.ts';
import { eventLabelOf, isZeroAddress } from '../app/features/chain/events.ts';
import { formatCnDateTime as formatDateTime } from '../app/components/ui/cn-time.ts';
import { shortAddress } from '../app/lib/text.ts';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';

const ZERO = toBase32Address(ZERO_HEX_ADDRESS, 1029);
const A = toBase32Address('0x1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 1029);
const B = toBase32Address('0x1bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 1029);
const EXCHANGE = toBase32Address('0x8bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 1029);

describe('chain record events', () => {
  it('recognises the zero address in every form', () => {
    expect(isZeroAddress(ZERO)).toBe(true);
    expect(isZeroAddress(toBase32Address(ZERO_HEX_ADDRESS, 1029, true))).toBe(true);
    expect(isZeroAddress(toBase32Address(ZERO_HEX_ADDRESS, 1))).toBe(true);
    expect(isZeroAddress(ZERO_HEX_ADDRESS)).toBe(true);
    expect(isZeroAddress('')).toBe(true);
    expect(isZeroAddress(A)).toBe(false);
    expect(isZeroAddress(EXCHANGE)).toBe(false);
  });

  it('labels: mint / transfer / burn / approve / revoke / sale / cancel', () => {
    expect(eventLabelOf({ event: 'Transfer', from: ZERO, to: A })).toBe('mint');
    expect(eventLabelOf({ event: 'Transfer', from: A, to: B })).toBe('transfer');
    expect(eventLabelOf({ event: 'Transfer', from: A, to: ZERO })).toBe('burn');
    expect(eventLabelOf({ event: 'Approval', from: A, to: EXCHANGE })).toBe('approve');
    expect(eventLabelOf({ event: 'Approval', from: A, to: ZERO })).toBe('revoke');
    expect(eventLabelOf({ event: 'OrderExecuted', from: A, to: B })).toBe('sale');
    expect(eventLabelOf({ event: 'OrderCancelled', from: A, to: '' })).toBe('cancel');
    expect(eventLabelOf({ event: 'Something', from: A, to: B })).toBeNull();
  });

  it('every label is translated', () => {
    expect(zh.chain.events).toEqual({ mint: '铸造', transfer: '转移', approve: '授权', revoke: '取消授权', sale: '成交', cancel: '撤单', burn: '销毁' });
    expect(Object.keys(en.chain.events).sort()).toEqual(Object.keys(zh.chain.events).sort());
  });
});

describe('formats', () => {
  it('yyyy-MM-dd HH:mm:ss in Beijing time (UTC+8); nothing for a missing time', () => {
    expect(formatDateTime(Date.UTC(2024, 0, 4, 23, 8, 9))).toBe('2024-01-05 07:08:09');
    expect(formatDateTime(0)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
  });

  it('short addresses and hashes keep their prefix', () => {
    expect(shortAddress(A)).toBe(`cfx:${A.slice(4, 8)}…${A.slice(-4)}`);
    expect(shortAddress(`0x${'ab'.repeat(32)}`, 6, 4)).toBe('0xababab…abab');
    expect(shortAddress('CFX:TYPE.USER:AAK2RRA2NJVD77EZWJVX04KKDS9FZAGFE6KU8SCZ91')).toBe('CFX:TYPE.USER:AAK2…CZ91');
    expect(shortAddress('cfx:ab')).toBe('cfx:ab');
  });
});

describe('wallet texts', () => {
  it('the exact spec messages in both languages', () => {
    expect(zh.wallet.switchNetwork).toBe('请在钱包里将网络切换到Conflux正式网');
    expect(en.wallet.switchNetwork).toBe('please switch the wallet network to Conflux mainnet');
    expect(zh.wallet.loginFirst).toBe('请先登录，再连接钱包');
    expect(en.wallet.loginFirst).toBe('please log in first, then link a wallet');
    expect(zh.wallet.devBadge).toBe('开发钱包');
    expect(en.wallet.devBadge).toBe('dev wallet');
  });
});
