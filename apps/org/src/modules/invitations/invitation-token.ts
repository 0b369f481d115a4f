import { createHash, randomBytes } from 'node:crypto';

/**
 * A new invitation token: 256 random bits, base64url (43 characters, fits the contract's token
 * character rule). Only {@link hashInvitationToken} of it is stored.
 */
export function newInvitationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

/** SHA-256 hex: enough for a 256-bit random token (no salt or slow hash needed). */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
