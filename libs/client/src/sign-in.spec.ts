import { createHash } from 'node:crypto';
import { createSignInRequest, readSignInResponse, SignInRefusedError } from './sign-in.js';

describe('sign-in with an OpenID provider (SDK helpers)', () => {
  const options = {
    baseUrl: 'https://api.example.com/',
    connection: 'corp',
    clientId: '0b6c9d6e-3f7a-4c1e-9a43-2d5b8f1e7c20',
    redirectUri: 'https://app.example.com/signed-in',
  };

  it('builds the authorize URL with a fresh state and an S256 challenge of its verifier', async () => {
    const request = await createSignInRequest(options);
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe('https://api.example.com/v1/api/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      connection: 'corp',
      client_id: options.clientId,
      redirect_uri: options.redirectUri,
      state: request.state,
      code_challenge: createHash('sha256').update(request.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    expect(request.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await createSignInRequest(options)).state).not.toBe(request.state);
  });

  it('returns the code of a matching answer and refuses errors and foreign states', async () => {
    const request = await createSignInRequest(options);
    const back = (query: string) => `${options.redirectUri}?${query}`;
    expect(readSignInResponse(back(`code=oac_x&state=${request.state}`), request)).toBe('oac_x');
    expect(() => readSignInResponse(back('code=oac_x&state=other'), request)).toThrow(
      SignInRefusedError,
    );
    try {
      readSignInResponse(
        back(`error=access_denied&error_code=ACCOUNT_LINK_REQUIRED&state=${request.state}`),
        request,
      );
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(SignInRefusedError);
      expect((error as SignInRefusedError).code).toBe('ACCOUNT_LINK_REQUIRED');
      expect((error as SignInRefusedError).error).toBe('access_denied');
    }
  });
});
