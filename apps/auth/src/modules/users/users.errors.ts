import { DomainError } from '@wp/http';

export type UsersErrorCode = 'USERNAME_TAKEN' | 'INVALID_USERNAME';

export class UsernameTakenError extends DomainError {
  constructor() {
    super('conflict', 'USERNAME_TAKEN', 'Username already registered', {
      detail: 'An account with this username already exists.',
      source: { pointer: '/username' },
    });
  }
}

export class InvalidUsernameError extends DomainError {
  constructor(detail: string) {
    super('invalid', 'INVALID_USERNAME', 'Invalid username', {
      detail,
      source: { pointer: '/username' },
    });
  }
}
