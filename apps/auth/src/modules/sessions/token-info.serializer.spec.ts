import { toTokenInfo } from './token-info.serializer.js';

describe('toTokenInfo', () => {
  const claims = {
    sub: 'u',
    jti: 'j',
    sid: 's',
    typ: 'user' as const,
    app: 'a',
    client_id: 'a',
    email: 'e@x.test',
    iss: 'workspace-platform',
    aud: 'workspace-platform-api',
    iat: 1000,
    exp: 1900,
  };

  it('returns the claims with active, token_type and the seconds left', () => {
    expect(toTokenInfo(claims, 1500.7)).toEqual({
      ...claims,
      active: true,
      token_type: 'access_token',
      expires_in: 400,
    });
  });

  it('adds agent claims only when the token has them', () => {
    const agent = toTokenInfo({ ...claims, typ: 'agent', org: 1, prj: 2, scp: ['r'], prm: [] }, 0);
    expect(agent).toMatchObject({ org: 1, prj: 2, scp: ['r'], prm: [] });
    expect('org' in toTokenInfo(claims, 0)).toBe(false);
  });
});
