import type { AccessTokenSubject } from '../tokens/token.service.js';

/**
 * The subject of a user session's access token: the user, the session (`sid`, its refresh token
 * family), the client application and, for sessions opened with more than a password, the
 * sign-in's `amr` (RFC 8176; docs/auth.md § Passkeys). Opening and refreshing a session sign the
 * same subject.
 */
export function userTokenSubject(
  user: { id: string; email: string | null },
  familyId: string,
  appId: string,
  amr: string[] | null | undefined,
): AccessTokenSubject {
  return {
    sub: user.id,
    sid: familyId,
    typ: 'user',
    app: appId,
    email: user.email,
    ...(amr ? { amr } : {}),
  };
}
