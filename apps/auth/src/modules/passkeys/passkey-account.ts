import { ForbiddenError, UnauthenticatedError } from '@wp/http';
import type { Principal } from '@wp/security';
import type { User } from '../accounts/user.entity.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { PasskeyRegistrationFailedError } from './passkeys.errors.js';

/**
 * The signed-in account of a passkey route (user tokens only).
 * @throws ForbiddenError 403 `USER_TOKEN_REQUIRED` for agent tokens;
 *   UnauthenticatedError 401 `ACCOUNT_INACTIVE` when the account is not active
 */
export async function activeAccount(principal: Principal, users: UsersRepository): Promise<User> {
  if (principal.type !== 'user') {
    throw new ForbiddenError('Only users have passkeys.', 'USER_TOKEN_REQUIRED');
  }
  const user = await users.findById(principal.id);
  if (!user || user.status !== 'active') {
    throw new UnauthenticatedError('The account is not active.', 'ACCOUNT_INACTIVE');
  }
  return user;
}

/**
 * The challenge a WebAuthn response answers: `challenge` of its `clientDataJSON`
 * (base64url of UTF-8 JSON, W3C WebAuthn § 5.8.1). Null when it cannot be read.
 */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge)
      ? challenge
      : null;
  } catch {
    return null;
  }
}

/** The WebAuthn user handle of an account: the 16 bytes of its UUID (no personal data). */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replaceAll('-', ''), 'hex'));
}

/** Registration: the readable challenge of a response, or 422. */
export function registrationChallenge(clientDataJSON: string): string {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) throw new PasskeyRegistrationFailedError('clientDataJSON cannot be read.');
  return challenge;
}
