import { describe, expect, it } from 'vitest';
import { serverMessages } from '@cfx/contract/messages.ts';
import { SETTLED_FIELDS, SETTLED_FIELD_MESSAGES, yuanToFen } from '@cfx/contract/settled-rules.ts';
import { checkFile, EMPTY_FORM, megabytes, toSettledInput, validateSettledForm, type SettledFormValues } from '../app/features/settled/validate.ts';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';

/** The project application form's checks: the server's rules, in the server's order, with the server's texts. */
const good: SettledFormValues = {
  projectName: '山海经·数字典藏',
  creatorName: '青山工作室',
  category: 'culture',
  description: '以《山海经》中的异兽为题材的数字艺术作品系列，共 12 款。',
  supply: '1000',
  price: '99.00',
  contactName: '王小明',
  mobile: '13800138000',
  email: 'wang@example.com',
  agree: true,
  artworkKeys: ['public/img/202611/0123456789abcdef0123456789abcdef.png'],
  qualificationKeys: ['private/doc/202611/0123456789abcdef0123456789abcdef.pdf'],
};

describe('project application form validation', () => {
  it('a complete form passes and becomes the server body', () => {
    expect(validateSettledForm(good)).toEqual([]);
    expect(toSettledInput({ ...good, projectName: '  山海经·数字典藏 ', supply: '1,000', price: '￥1,200.5' })).toMatchObject({
      projectName: '山海经·数字典藏',
      supply: 1000,
      priceFen: 120050,
      agree: true,
    });
  });

  it('an empty form lists every field, in form order', () => {
    expect(validateSettledForm(EMPTY_FORM)).toEqual([...SETTLED_FIELDS]);
  });

  it('each rule', () => {
    const bad = (patch: Partial<SettledFormValues>) => validateSettledForm({ ...good, ...patch });
    expect(bad({ projectName: '  ' })).toEqual(['projectName']);
    expect(bad({ projectName: '项'.repeat(40) })).toEqual([]);
    expect(bad({ projectName: '项'.repeat(41) })).toEqual(['projectName']);
    expect(bad({ creatorName: 'a\tb' })).toEqual(['creatorName']);
    expect(bad({ category: 'weapons' })).toEqual(['category']);
    expect(bad({ description: '字'.repeat(19) })).toEqual(['description']);
    expect(bad({ description: '字'.repeat(20) })).toEqual([]);
    expect(bad({ description: '字'.repeat(2001) })).toEqual(['description']);
    expect(bad({ supply: '0' })).toEqual(['supply']);
    expect(bad({ supply: '1.5' })).toEqual(['supply']);
    expect(bad({ supply: '1000001' })).toEqual(['supply']);
    expect(bad({ supply: '1000000' })).toEqual([]);
    expect(bad({ price: '0' })).toEqual(['priceFen']);
    expect(bad({ price: '0.01' })).toEqual([]);
    expect(bad({ price: '1.234' })).toEqual(['priceFen']);
    expect(bad({ price: '1000000.01' })).toEqual(['priceFen']);
    expect(bad({ price: '-5' })).toEqual(['priceFen']);
    expect(bad({ artworkKeys: [] })).toEqual(['artworkKeys']);
    expect(bad({ artworkKeys: Array.from({ length: 10 }, (_, i) => `k${i}`) })).toEqual(['artworkKeys']);
    expect(bad({ qualificationKeys: [] })).toEqual(['qualificationKeys']);
    expect(bad({ contactName: '' })).toEqual(['contactName']);
    expect(bad({ mobile: '2380013800' })).toEqual(['mobile']);
    expect(bad({ email: 'a@b' })).toEqual(['email']);
    expect(bad({ email: 'a b@c.com' })).toEqual(['email']);
    expect(bad({ agree: false })).toEqual(['agree']);
  });

  it('prices are converted without floating point', () => {
    expect(yuanToFen('0.1')).toBe(10);
    expect(yuanToFen('19.99')).toBe(1999);
    expect(yuanToFen('1,000,000.00')).toBe(100_000_000);
    expect(yuanToFen('1.')).toBe(100);
    expect(yuanToFen('abc')).toBeNull();
    expect(yuanToFen('')).toBeNull();
  });

  it('chosen files are checked by size and extension first', () => {
    const MB = 1024 * 1024;
    expect(checkFile({ name: 'a.PNG', size: 10 }, 'image', 5 * MB)).toBeNull();
    expect(checkFile({ name: 'a.png', size: 0 }, 'image', 5 * MB)).toBe('uploadEmpty');
    expect(checkFile({ name: 'a.png', size: 5 * MB + 1 }, 'image', 5 * MB)).toBe('uploadTooLarge');
    expect(checkFile({ name: 'a.svg', size: 10 }, 'image', 5 * MB)).toBe('uploadBadImageType');
    expect(checkFile({ name: 'a.pdf', size: 10 }, 'document', 20 * MB)).toBeNull();
    expect(checkFile({ name: 'a.docx', size: 10 }, 'document', 20 * MB)).toBeNull();
    expect(checkFile({ name: 'a.gif', size: 10 }, 'document', 20 * MB)).toBe('uploadBadFileType');
    expect(megabytes(5 * MB)).toBe('5');
    expect(megabytes(MB / 2)).toBe('0.5');
  });

  it("the form's texts are the server's texts, in both languages", () => {
    for (const f of SETTLED_FIELDS) {
      const server = serverMessages[SETTLED_FIELD_MESSAGES[f]];
      expect(zh.settled.errors[f], f).toBe(server.zh);
      expect(en.settled.errors[f], f).toBe(server.en);
    }
    for (const k of ['uploadEmpty', 'uploadTooLarge', 'uploadBadImageType', 'uploadBadFileType'] as const) {
      expect(zh.settled.errors[k].replace('{{mb}}', '{mb}'), k).toBe(serverMessages[k].zh);
      expect(en.settled.errors[k].replace('{{mb}}', '{mb}'), k).toBe(serverMessages[k].en);
    }
  });
});
