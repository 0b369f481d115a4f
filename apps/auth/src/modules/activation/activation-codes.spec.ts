import type { AuthConfig } from '../../config/auth.config.js';
import { ActivationCodes } from './activation-codes.js';

describe('ActivationCodes', () => {
  const codes = new ActivationCodes({ AUTH_CODE_SECRET: 's'.repeat(32) } as AuthConfig);
  const userId = '5f0c7d8e-1111-4222-8333-944445555666';

  it('draws six digits, keeping leading zeros', () => {
    for (let i = 0; i < 200; i++) expect(codes.generate()).toMatch(/^\d{6}$/);
  });

  it('matches the code it digested for the same account only', () => {
    const digest = codes.digest(userId, '012345');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(codes.matches(userId, '012345', digest)).toBe(true);
    expect(codes.matches(userId, '012346', digest)).toBe(false);
    expect(codes.matches('6f0c7d8e-1111-4222-8333-944445555666', '012345', digest)).toBe(false);
  });

  it('depends on the server secret (a plain hash of 6 digits would be reversible)', () => {
    const other = new ActivationCodes({ AUTH_CODE_SECRET: 't'.repeat(32) } as AuthConfig);
    expect(other.digest(userId, '012345')).not.toBe(codes.digest(userId, '012345'));
  });

  it('refuses a malformed stored digest without throwing', () => {
    expect(codes.matches(userId, '012345', 'abc')).toBe(false);
  });
});
