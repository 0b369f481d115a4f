import { DomainError } from '@wp/http';

/**
 * Registration (bearer routes, 422 like `INVALID_TWO_FACTOR_CODE` there: a 401 would make
 * clients refresh and retry): the challenge of the response is unknown, expired, already used,
 * another account's or another application's.
 */
export class PasskeyChallengeInvalidError extends DomainError {
  constructor(atSignIn: boolean) {
    super(atSignIn ? 'unauthenticated' : 'rule', 'PASSKEY_CHALLENGE_INVALID', 'Challenge invalid', {
      detail: 'The challenge is unknown, expired or was already used. Ask for new options.',
      source: { pointer: '/credential/response/clientDataJSON' },
    });
  }
}

/** 422: the authenticator's registration response did not verify (origin, RP id, UV, signature). */
export class PasskeyRegistrationFailedError extends DomainError {
  constructor(reason: string) {
    super('rule', 'PASSKEY_VERIFICATION_FAILED', 'Passkey not verified', {
      detail: reason,
      source: { pointer: '/credential' },
    });
  }
}

/** 409: this credential id is registered already (on this or another account). */
export class PasskeyAlreadyRegisteredError extends DomainError {
  constructor() {
    super('conflict', 'PASSKEY_ALREADY_REGISTERED', 'Passkey already registered', {
      detail: 'This authenticator credential is already registered.',
      source: { pointer: '/credential/id' },
    });
  }
}

/**
 * 401 at sign-in: unknown (or removed) credential, an assertion that does not verify (origin,
 * RP id, user verification, signature), a signature counter that did not move forward, or an
 * account that is not active. One code for all, so the answer tells nothing about accounts.
 */
export class InvalidPasskeyError extends DomainError {
  constructor() {
    super('unauthenticated', 'INVALID_PASSKEY', 'Passkey not accepted', {
      detail: 'The passkey could not be verified. Try again or sign in with your password.',
      source: { pointer: '/credential' },
    });
  }
}
