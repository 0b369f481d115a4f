/**
 * Answer of `POST /users/password/reset_request`, `/reset` and `/change` (the contract leaves
 * the bodies open; docs/auth.md): `{status: 200, message}`, plus `sessionsEnded` (other
 * sessions signed out) for reset and change.
 */
export interface PasswordOperationResource {
  status: 200;
  message: string;
  sessionsEnded?: number;
}

/** The one reset_request answer, identical whether or not the email has an account. */
export function resetRequested(tokenTtlSeconds: number): PasswordOperationResource {
  const minutes = Math.round(tokenTtlSeconds / 60);
  return {
    status: 200,
    message: `If an account uses this email, a message with a reset link is on its way. The link works once and expires in ${minutes} minutes.`,
  };
}

export function passwordOperation(
  message: string,
  sessionsEnded: number,
): PasswordOperationResource {
  return { status: 200, message, sessionsEnded };
}
