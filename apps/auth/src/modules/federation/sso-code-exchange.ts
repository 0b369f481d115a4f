import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { User } from '../accounts/user.entity.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { InvalidGrantError } from './federation.errors.js';
import { SsoStore } from './sso-store.js';

/** The fields of `POST /oauth/token` with `grant_type=authorization_code`. */
export interface AuthorizationCodeGrant {
  code: string;
  redirect_uri: string;
  code_verifier: string;
}

/** RFC 7636 § 4.1: 43-128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * `grant_type=authorization_code` (RFC 6749 § 4.1.3 with PKCE, RFC 7636 § 4.6): the one-time
 * code of a provider sign-in, used up by the first attempt whatever its outcome, for the
 * application (Api-Key) and redirect URI it was issued to, with the verifier of the client's
 * `code_challenge`. Every refusal is the same 400 `INVALID_GRANT` (with what did not match).
 */
@Injectable()
export class SsoCodeExchange {
  constructor(
    private readonly store: SsoStore,
    private readonly users: UsersRepository,
  ) {}

  /**
   * @returns the active account the code was issued for, and the connection it signed in
   *   through (null for codes issued before connections were recorded)
   */
  async redeem(
    grant: AuthorizationCodeGrant,
    appId: string,
  ): Promise<{ user: User; connectionId: string | null }> {
    const row = await this.store.takeCode(grant.code);
    if (!row) throw new InvalidGrantError('The code is unknown, already used or expired.');
    if (row.appId !== appId) throw new InvalidGrantError('The code was issued to another client.');
    if (row.redirectUri !== grant.redirect_uri) {
      throw new InvalidGrantError('redirect_uri differs from the authorization request.');
    }
    if (!VERIFIER.test(grant.code_verifier) || !sameS256(grant.code_verifier, row.codeChallenge)) {
      throw new InvalidGrantError('code_verifier does not match the code_challenge.');
    }
    const user = await this.users.findById(row.userId);
    if (!user || user.status !== 'active') {
      throw new InvalidGrantError('The account cannot sign in.');
    }
    return { user, connectionId: row.connectionId ?? null };
  }
}

function sameS256(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
