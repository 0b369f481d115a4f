import { Injectable } from '@nestjs/common';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import { UsersRepository } from '../users/users.repository.js';
import { parseUsername, usernameKey, type Username } from '../users/username.js';
import type { SessionResource } from './session.serializer.js';
import { ActivationRequiredError, InvalidCredentialsError } from './sessions.errors.js';
import { SessionsService } from './sessions.service.js';

/** `POST /oauth/token` with username and password (contract § Accounts and sessions). */
@Injectable()
export class LoginService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly limits: RateLimits,
  ) {}

  /**
   * Reserves a point of the per-username login limit BEFORE verifying (contract § Limits), so
   * concurrent guesses beyond the limit never reach argon2; a correct password clears the count.
   * @throws RateLimitedError 429 with Retry-After once `LOGIN_RATE_LIMIT` attempts were made in
   *   the window without a success
   * @throws InvalidCredentialsError 401 for an unknown user or a wrong password (same body)
   * @throws ActivationRequiredError 403 with `meta.user_id` for a pending account
   */
  async login(username: string, password: string, appId: string): Promise<SessionResource> {
    const key = usernameKey(username);
    const parsed = parseUsername(username);
    // The limit's reservation (Redis) and the account lookup (PostgreSQL) are independent round
    // trips: run together; the verification below still waits for the reservation.
    const [, user] = await Promise.all([
      this.limits.consume('login', key),
      parsed ? this.users.findForLogin(parsed.kind, usernameValue(parsed)) : null,
    ]);
    const ok = await this.passwords.verify(user?.passwordHash ?? null, password);
    if (!user || !ok || user.status === 'disabled') throw new InvalidCredentialsError();
    if (user.status === 'pending_activation') {
      await this.limits.reset('login', key);
      throw new ActivationRequiredError(user.id);
    }
    // Independent round trips (Redis, PostgreSQL): run together.
    const [, session] = await Promise.all([
      this.limits.reset('login', key),
      this.sessions.open(user, appId),
    ]);
    return session;
  }
}

function usernameValue(parsed: Username): string {
  return parsed.kind === 'email' ? parsed.email : parsed.phone;
}
