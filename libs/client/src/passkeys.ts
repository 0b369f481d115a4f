import type { ApiClient } from './api.js';
import type { AnswerBody, RequestBody } from './operations.js';

const PASSKEYS = '/v1/api/users/me/passkeys' as const;
const PASSKEY = '/v1/api/users/me/passkeys/{passkeyId}' as const;

/** `GET /users/me/passkeys`: the signed-in user's passkeys. */
export type PasskeyListDocument = AnswerBody<typeof PASSKEYS, 'get'>;
/** One passkey (`POST /users/me/passkeys`, `PATCH …/{id}`). */
export type PasskeyDocument = AnswerBody<typeof PASSKEYS, 'post'>;
/** Options for `navigator.credentials.create()` / `.get()` (`data.attributes.publicKey`, JSON form). */
export type PasskeyOptionsDocument = AnswerBody<`${typeof PASSKEYS}/options`, 'post'>;
/** `PublicKeyCredential.toJSON()` of a new credential, as `POST /users/me/passkeys` takes it. */
export type PasskeyRegistrationCredential = RequestBody<typeof PASSKEYS, 'post'>['credential'];

/**
 * The signed-in user's passkeys (docs/auth.md § Passkeys). In a browser:
 * ```ts
 * const options = await sdk.passkeys.registrationOptions();
 * const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options.data.attributes.publicKey);
 * const credential = await navigator.credentials.create({ publicKey });
 * await sdk.passkeys.register(credential.toJSON(), 'Laptop');
 * ```
 * Signing in with one is {@link ClientCore.loginWithPasskey}.
 */
export class Passkeys {
  constructor(private readonly api: ApiClient) {}

  async list(): Promise<PasskeyListDocument> {
    return (await this.api.GET(PASSKEYS)).body;
  }

  /** Creation options with a single-use challenge (5 minutes). */
  async registrationOptions(): Promise<PasskeyOptionsDocument> {
    return (await this.api.POST(`${PASSKEYS}/options`)).body;
  }

  /**
   * Verifies and stores the credential made from {@link registrationOptions}.
   * @throws {PlatformApiError} 409 `PASSKEY_ALREADY_REGISTERED`, 422 `PASSKEY_CHALLENGE_INVALID`
   *   or `PASSKEY_VERIFICATION_FAILED`
   */
  async register(
    credential: PasskeyRegistrationCredential,
    name?: string,
  ): Promise<PasskeyDocument> {
    const { body } = await this.api.POST(PASSKEYS, {
      body: { credential, ...(name === undefined ? {} : { name }) },
    });
    return body;
  }

  async rename(passkeyId: string, name: string): Promise<PasskeyDocument> {
    const { body } = await this.api.PATCH(PASSKEY, {
      params: { path: { passkeyId } },
      body: { name },
    });
    return body;
  }

  async remove(passkeyId: string): Promise<void> {
    await this.api.DELETE(PASSKEY, { params: { path: { passkeyId } } });
  }
}
