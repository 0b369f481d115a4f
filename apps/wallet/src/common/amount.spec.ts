import { Amount, amountProblem, plainDecimal } from './amount.js';

describe('amountProblem (docs/architecture.md § Amounts)', () => {
  it.each([1, 0.5, 0.00000001, 12345678.12345678, 1e15, 999999999999999.9])('accepts %p', (value) =>
    expect(amountProblem(value)).toBeNull(),
  );

  it.each([
    ['10', 'must be a JSON number'],
    [null, 'must be a JSON number'],
    [true, 'must be a JSON number'],
    [NaN, 'must be a finite number'],
    [Infinity, 'must be a finite number'],
    [0, 'greater than 0'],
    [-1, 'greater than 0'],
    [1e15 + 1, 'at most 1000000000000000'],
    [0.123456789, 'at most 8 decimals'],
    [1e-9, 'at most 8 decimals'],
    [0.1 + 0.2, 'at most 8 decimals'],
  ])('refuses %p (%s)', (value, message) => {
    expect(amountProblem(value)).toContain(message);
  });
});

describe('plainDecimal', () => {
  it.each([
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [12.5, '12.5'],
    [1e21, '1000000000000000000000'],
    [100, '100'],
  ])('writes %p as %s', (value, text) => expect(plainDecimal(value)).toBe(text));
});

describe('Amount', () => {
  it('drops trailing zeros of NUMERIC text and keeps every digit', () => {
    expect(Amount.fromNumeric('12.50000000').text).toBe('12.5');
    expect(Amount.fromNumeric('100.00000000').text).toBe('100');
    expect(Amount.fromNumeric('0.00000000').text).toBe('0');
    expect(Amount.fromNumeric('-3.10000000').text).toBe('-3.1');
    expect(Amount.fromNumeric('123456789012345.12345678').text).toBe('123456789012345.12345678');
  });

  it('knows its sign', () => {
    expect(Amount.fromNumeric('-3').abs().text).toBe('3');
    expect(Amount.fromNumeric('-3').isNegative()).toBe(true);
    expect(Amount.fromNumeric('3').isNegative()).toBe(false);
  });

  it('refuses text that is not a decimal', () => {
    expect(() => Amount.fromNumeric('1e5')).toThrow();
  });
});
