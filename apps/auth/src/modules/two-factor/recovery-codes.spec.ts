import { hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode } from './recovery-codes.js';

describe('recovery codes', () => {
  it('makes ten distinct codes of the form xxxxx-xxxxx without look-alike characters', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });

  it('reads typed codes whatever their case, spaces and hyphens, and refuses other input', () => {
    expect(normalizeRecoveryCode('ABCDE-FGHJK')).toBe('abcdefghjk');
    expect(normalizeRecoveryCode(' abcde fghjk ')).toBe('abcdefghjk');
    for (const bad of ['abcde-fghj', 'abcde-fghjkm', 'abcde-fghj0', 'abcde-fghjl', '']) {
      expect(normalizeRecoveryCode(bad)).toBeNull();
    }
  });

  it('hashes with the server secret and the account: the same code differs per user and per key', () => {
    const a = hashRecoveryCode('k'.repeat(32), 'user-1', 'abcdefghjk');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode('k'.repeat(32), 'user-2', 'abcdefghjk')).not.toBe(a);
    expect(hashRecoveryCode('j'.repeat(32), 'user-1', 'abcdefghjk')).not.toBe(a);
    expect(hashRecoveryCode('k'.repeat(32), 'user-1', 'abcdefghjk')).toBe(a);
  });
});
