import { principalFromClaims, sessionHasTwoFactors, type AccessTokenClaims } from './principal.js';

const claims = (extra: Partial<AccessTokenClaims>): AccessTokenClaims => ({
  iss: 'https://auth.example',
  aud: 'platform',
  sub: '7f0b1c2e-0000-4000-8000-000000000001',
  sid: 'session',
  jti: 'token',
  exp: 2_000_000_000,
  iat: 1_900_000_000,
  client_id: 'app',
  typ: 'user',
  app: 'app',
  email: 'ada@example.com',
  ...extra,
});

describe('sessionHasTwoFactors', () => {
  it('is true for a user session whose amr has mfa (a user-verified passkey)', () => {
    expect(sessionHasTwoFactors(principalFromClaims(claims({ amr: ['hwk', 'user', 'mfa'] })))).toBe(
      true,
    );
  });

  it('is false for a password session (no amr) and for amr without mfa', () => {
    expect(sessionHasTwoFactors(principalFromClaims(claims({})))).toBe(false);
    expect(sessionHasTwoFactors(principalFromClaims(claims({ amr: ['hwk', 'user'] })))).toBe(false);
  });

  it('is false for an agent token, whatever it carries', () => {
    expect(sessionHasTwoFactors(principalFromClaims(claims({ typ: 'agent', amr: ['mfa'] })))).toBe(
      false,
    );
  });
});
