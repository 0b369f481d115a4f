/**
 * Sign-in with an OpenID provider from a client application (docs/auth.md § Sign-in with an
 * OpenID provider): the browser goes to {@link createSignInRequest}'s `url`, comes back to the
 * application's registered redirect URI, {@link readSignInResponse} checks the answer and
 * `client.exchangeSignInCode` turns the code into the session. Uses Web Crypto only (browsers,
 * Node ≥ 20, Deno, workers).
 */

/** What to keep (e.g. in `sessionStorage`) between sending the browser away and its return. */
export interface SignInRequest {
  /** Where to send the browser: `GET {baseUrl}/v1/api/oauth/authorize?…`. */
  url: string;
  /** The random `state` sent; the answer must carry it back. */
  state: string;
  /** The PKCE verifier (RFC 7636) of the `code_challenge` sent; needed for the exchange. */
  codeVerifier: string;
  redirectUri: string;
}

export interface SignInRequestOptions {
  /** The gateway, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The connection's slug, as the operator named it. */
  connection: string;
  /** The client application's id (the Api-Key's application). */
  clientId: string;
  /** Exactly as registered for the application. */
  redirectUri: string;
}

/** The browser came back with an error (RFC 6749 § 4.1.2.1) or a foreign `state`. */
export class SignInRefusedError extends Error {
  constructor(
    /** RFC 6749's `error` (`access_denied`, `invalid_request`, …), or `state_mismatch`. */
    readonly error: string,
    /**
     * The platform's code (`error_code`): `EMAIL_NOT_VERIFIED`, `ACCOUNT_LINK_REQUIRED` (sign in
     * with the password), `CONNECTION_DISABLED`, `ID_TOKEN_INVALID`, `PROVIDER_DENIED`, …
     */
    readonly code: string | null,
    readonly description: string | null,
  ) {
    super(description ?? error);
    this.name = 'SignInRefusedError';
  }
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomToken(): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

/** A new state and PKCE pair (S256) and the authorize URL carrying them. */
export async function createSignInRequest(options: SignInRequestOptions): Promise<SignInRequest> {
  const state = randomToken();
  const codeVerifier = randomToken();
  const digest = await globalThis.crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(codeVerifier),
  );
  const query = new URLSearchParams({
    response_type: 'code',
    connection: options.connection,
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    state,
    code_challenge: base64url(new Uint8Array(digest)),
    code_challenge_method: 'S256',
  });
  const url = `${options.baseUrl.replace(/\/$/, '')}/v1/api/oauth/authorize?${query.toString()}`;
  return { url, state, codeVerifier, redirectUri: options.redirectUri };
}

/**
 * The one-time code of the redirect URI the browser came back to.
 * @param callbackUrl the full URL (e.g. `location.href`)
 * @throws SignInRefusedError for an error answer or a `state` other than the request's
 */
export function readSignInResponse(callbackUrl: string, request: SignInRequest): string {
  const params = new URL(callbackUrl).searchParams;
  if (params.get('state') !== request.state) {
    throw new SignInRefusedError('state_mismatch', null, 'The answer is not for this sign-in.');
  }
  const error = params.get('error');
  const code = params.get('code');
  if (error || !code) {
    throw new SignInRefusedError(
      error ?? 'invalid_response',
      params.get('error_code'),
      params.get('error_description'),
    );
  }
  return code;
}
