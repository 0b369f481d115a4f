import { TxHost } from '@wp/persistence';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { lookAlikeProblem, parseEmail, parsePhone, usernameKey } from '@wp/identity';
import { Outbox } from '@wp/messaging';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { ActivationService } from '../activation/activation.service.js';
import { OrgSsoState } from '../federation/org-sso-state.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import type { SessionResource } from '../sessions/session.serializer.js';
import type { SessionClient } from '../sessions/sessions.repository.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { RegisterUserDto } from './dto/register-user.dto.js';
import type { User } from '../accounts/user.entity.js';
import { toUserSnapshot } from '../accounts/user.snapshot.js';
import { InvalidUsernameError, UsernameTakenError } from './users.errors.js';
import { UsersRepository } from '../accounts/users.repository.js';
import {
  toActivationRequired,
  type ActivationRequiredResource,
  type ValidationResource,
} from './users.serializer.js';

/** Registration answer: a session (no activation needed) or the activation-required body. */
export type RegistrationResult =
  | { kind: 'session'; session: SessionResource }
  | { kind: 'activation_required'; body: ActivationRequiredResource };

@Injectable()
export class UsersService {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly activation: ActivationService,
    private readonly limits: RateLimits,
    private readonly outbox: Outbox,
    private readonly ssoState: OrgSsoState,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * `POST /users` (docs/api.md § Accounts and sessions; States and transitions, Account rows).
   * Phone accounts always need activation; email accounts when `AUTH_EMAIL_ACTIVATION_REQUIRED`.
   * One transaction creates the account, its activation code, `auth.user.registered`, and
   * either `notify.requested` (the code) or `auth.user.activated` and a session.
   * A taken username — any spelling of an existing account's key: case, width, Unicode
   * normalization, IDNA, invisible characters (docs/auth.md § Usernames) — costs the same argon2
   * hash as a fresh one, so timing does not tell them apart. The email is kept as typed.
   * @throws InvalidUsernameError 400 (not an address or number, invisible characters, mixed or
   *   confusable scripts); RateLimitedError 429 (per username); UsernameTakenError 409
   * @throws SsoRequiredError 403 `SSO_REQUIRED` for an address at a verified domain of an
   *   organization that requires its own provider, decided by the domain alone (before any
   *   account is looked up): the person signs in through the provider, which creates the
   *   account (docs/auth.md § Organization single sign-on)
   */
  async register(
    dto: RegisterUserDto,
    appId: string,
    client: SessionClient,
  ): Promise<RegistrationResult> {
    const method = dto.method ?? 'email';
    const email = method === 'email' ? parseEmail(dto.username) : null;
    const phone = method === 'phone' ? parsePhone(dto.username) : null;
    if (method === 'email' && !email)
      throw new InvalidUsernameError('must be a valid email address');
    if (method === 'phone' && !phone) {
      throw new InvalidUsernameError(
        'must be a valid phone number in E.164 form, e.g. +14155550123',
      );
    }
    const lookAlike = lookAlikeProblem(dto.username);
    if (lookAlike) throw new InvalidUsernameError(lookAlike);
    if (email) await this.ssoState.assertAllowed(dto.username);
    await this.limits.consume('registration', usernameKey(dto.username));
    const activationRequired = method === 'phone' || this.config.AUTH_EMAIL_ACTIVATION_REQUIRED;
    const passwordHash = await this.passwords.hash(dto.password);
    const now = new Date();
    const user: User = {
      id: randomUUID(),
      email: email?.display ?? null,
      phone,
      usernameKey: email?.key ?? phone,
      passwordHash,
      status: activationRequired ? 'pending_activation' : 'active',
      firstName: '',
      lastName: '',
      activatedAt: activationRequired ? null : now,
      twoFactorEnabled: false,
      twoFactorVersion: 0,
      createdAt: now,
      updatedAt: now,
    };
    return this.txHost.withTransaction(async (): Promise<RegistrationResult> => {
      if (!(await this.users.insert(user))) throw new UsernameTakenError();
      await this.outbox.enqueue('auth.user.registered', toUserSnapshot(user));
      if (activationRequired) {
        await this.activation.issueCode(user);
        return { kind: 'activation_required', body: toActivationRequired(user.id, method) };
      }
      await this.outbox.enqueue('auth.user.activated', toUserSnapshot(user));
      return { kind: 'session', session: await this.sessions.open(user, appId, client) };
    });
  }

  /**
   * `GET /users/validate/email`: `valid` when registration would accept it (an address, no
   * invisible characters, no mixed or confusable scripts), `exists` when an account has it in any
   * spelling (docs/auth.md § Usernames). Rate limited per client address (docs/api.md § Limits).
   */
  async validateEmail(value: string, clientAddress: string): Promise<ValidationResource> {
    await this.limits.consume('validation', clientAddress);
    const email = parseEmail(value);
    if (!email || lookAlikeProblem(value)) return { valid: false, exists: false };
    return { valid: true, exists: (await this.users.findByUsernameKey(email.key)) !== null };
  }

  /**
   * `GET /users/validate/phone`: as {@link validateEmail}, for a national number + calling code.
   */
  async validatePhone(
    phoneNumber: string,
    countryCode: string,
    clientAddress: string,
  ): Promise<ValidationResource> {
    await this.limits.consume('validation', clientAddress);
    const phone = parsePhone(phoneNumber, countryCode);
    if (!phone) return { valid: false, exists: false };
    return { valid: true, exists: (await this.users.findByUsernameKey(phone)) !== null };
  }
}
