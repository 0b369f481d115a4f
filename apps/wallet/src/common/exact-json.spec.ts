import { Amount } from './amount.js';
import { exactJson } from './exact-json.js';

describe('exactJson', () => {
  it('writes amounts as their exact number literal, where a double would round', () => {
    const value = { balance: Amount.fromNumeric('123456789012345.12345678') };
    expect(exactJson(value)).toBe('{"balance":123456789012345.12345678}');
    expect(JSON.stringify(value)).not.toBe(exactJson(value));
  });

  it('writes everything else as JSON.stringify does', () => {
    const value = {
      s: 'a "quoted" \u0000 string',
      n: 1.5,
      b: false,
      nil: null,
      skipped: undefined,
      date: new Date('2026-01-02T03:04:05.000Z'),
      list: [1, undefined, { x: Amount.fromNumeric('0.10000000') }],
      nested: { deep: ['x'] },
    };
    expect(exactJson(value)).toBe(JSON.stringify({ ...value, list: [1, null, { x: 0.1 }] }));
  });

  it('cannot be fooled by a string that looks like an amount marker', () => {
    expect(exactJson({ description: '12.5' })).toBe('{"description":"12.5"}');
  });
});
