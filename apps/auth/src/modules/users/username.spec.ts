import { normalizeEmail, normalizePhone, parseUsername, usernameKey } from './username.js';

describe('usernames', () => {
  it('normalizes emails to trimmed lower case and rejects non-emails', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(normalizeEmail('not-an-email')).toBeNull();
    expect(normalizeEmail(`${'a'.repeat(250)}@example.com`)).toBeNull();
  });

  it('normalizes phone numbers to E.164, with or without a calling code', () => {
    expect(normalizePhone('+1 415 555 0100')).toBe('+14155550100');
    expect(normalizePhone('4155550100', '1')).toBe('+14155550100');
    expect(normalizePhone('07911123456', '+44')).toBe('+447911123456');
    expect(normalizePhone('123', '44')).toBeNull();
  });

  it('recognizes a login username as email or phone', () => {
    expect(parseUsername('Ada@example.com')).toEqual({ kind: 'email', email: 'ada@example.com' });
    expect(parseUsername('+14155550100')).toEqual({ kind: 'phone', phone: '+14155550100' });
    expect(parseUsername('nobody')).toBeNull();
  });

  it('keys rate limits by the normalized username so spellings share one budget', () => {
    expect(usernameKey('ADA@example.com ')).toBe(usernameKey('ada@example.com'));
    expect(usernameKey('+1 (415) 555-0100')).toBe(usernameKey('+14155550100'));
    expect(usernameKey('Some Name')).toBe('raw:some name');
  });
});
