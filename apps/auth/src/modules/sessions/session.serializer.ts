import type { User } from '../users/user.entity.js';

/**
 * The session resource (contract § "Session"): `data.id` user id, `data.type` `session`,
 * `attributes.accessToken`, `refreshToken`, `email`, `firstName`, `lastName` (strings, `""`
 * when unknown), plus `tokenType` and `expiresIn` (seconds) as OAuth clients expect.
 */
export interface SessionResource {
  data: {
    id: string;
    type: 'session';
    attributes: {
      accessToken: string;
      refreshToken: string;
      tokenType: 'Bearer';
      expiresIn: number;
      email: string;
      firstName: string;
      lastName: string;
    };
  };
}

export function toSessionResource(
  user: Pick<User, 'id' | 'email' | 'phone' | 'firstName' | 'lastName'>,
  tokens: { accessToken: string; refreshToken: string; expiresIn: number },
): SessionResource {
  return {
    data: {
      id: user.id,
      type: 'session',
      attributes: {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        tokenType: 'Bearer',
        expiresIn: tokens.expiresIn,
        email: user.email ?? '',
        firstName: user.firstName ?? '',
        lastName: user.lastName ?? '',
      },
    },
  };
}
