import { Injectable } from '@nestjs/common';
import { DomainError } from '@wp/http';
import { PasswordHasher } from '../passwords/password-hasher.js';
import type { User } from '../users/user.entity.js';
import { UsersRepository } from '../users/users.repository.js';
import { parseUsername } from '../users/username.js';
import type { SessionResource } from './session.serializer.js';
import { SessionsService } from './sessions.service.js';

export class InvalidCredentialsError extends DomainError {
  constructor() {
    super('unauthenticated', 'INVALID_CREDENTIALS', 'Invalid credentials', {
      detail: 'The username or password is incorrect.',
    });
  }
}

export class ActivationRequiredError extends DomainError {
  constructor(userId: string) {
    super('forbidden', 'ACTIVATION_REQUIRED', 'Activation required', {
      detail: 'Activate the account with the 6-digit code before logging in.',
      meta: { user_id: userId },
    });
  }
}

/** `POST /oauth/token` with username and password. */
@Injectable()
export class LoginService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * @throws InvalidCredentialsError 401 for an unknown user or a wrong password (same body)
   * @throws ActivationRequiredError 403 with `meta.user_id` for a pending account
   */
  async login(username: string, password: string, appId: string): Promise<SessionResource> {
    const parsed = parseUsername(username);
    let user: User | null = null;
    if (parsed?.kind === 'email') user = await this.users.findByEmail(parsed.email);
    if (parsed?.kind === 'phone') user = await this.users.findByPhone(parsed.phone);
    const ok = await this.passwords.verify(user?.passwordHash ?? null, password);
    if (!user || !ok || user.status === 'disabled') throw new InvalidCredentialsError();
    if (user.status === 'pending_activation') throw new ActivationRequiredError(user.id);
    return this.sessions.open(user, appId);
  }
}
