import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import { DataSource } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import type { SessionResource } from '../sessions/session.serializer.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { RegisterUserDto } from './dto/register-user.dto.js';
import type { User } from './user.entity.js';
import { toUserSnapshot } from './user.snapshot.js';
import { InvalidUsernameError, UsernameTakenError } from './users.errors.js';
import { UsersRepository } from './users.repository.js';
import { normalizeEmail, normalizePhone } from './username.js';

/** Registration answer: a session (no activation needed) or the activation-required body. */
export type RegistrationResult =
  | { kind: 'session'; session: SessionResource }
  | {
      kind: 'activation_required';
      body: { user_id: string; status: 201; message: string; activationRequired: true };
    };

@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly outbox: Outbox,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * `POST /users` (contract § Accounts and sessions; States and transitions, Account rows).
   * Creates the account in one transaction with its `auth.user.registered` (and, when no
   * activation is needed, `auth.user.activated`) events.
   * @throws InvalidUsernameError 400, UsernameTakenError 409
   */
  async register(dto: RegisterUserDto, appId: string): Promise<RegistrationResult> {
    const method = dto.method ?? 'email';
    const email = method === 'email' ? normalizeEmail(dto.username) : null;
    const phone = method === 'phone' ? normalizePhone(dto.username) : null;
    if (method === 'email' && !email)
      throw new InvalidUsernameError('must be a valid email address');
    if (method === 'phone' && !phone) {
      throw new InvalidUsernameError(
        'must be a valid phone number in E.164 form, e.g. +14155550123',
      );
    }
    const activationRequired = method === 'phone' || this.config.AUTH_EMAIL_ACTIVATION_REQUIRED;
    const passwordHash = await this.passwords.hash(dto.password);
    const now = new Date();
    const user: User = {
      id: randomUUID(),
      email,
      phone,
      passwordHash,
      status: activationRequired ? 'pending_activation' : 'active',
      firstName: '',
      lastName: '',
      activatedAt: activationRequired ? null : now,
      createdAt: now,
      updatedAt: now,
    };
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.users.insert(user, manager))) throw new UsernameTakenError();
      await this.outbox.enqueue(manager, 'auth.user.registered', toUserSnapshot(user));
      if (activationRequired) {
        return {
          kind: 'activation_required',
          body: {
            user_id: user.id,
            status: 201,
            message: `Account created. Enter the 6-digit code sent by ${method === 'phone' ? 'SMS' : 'email'} to activate it.`,
            activationRequired: true,
          },
        } as const;
      }
      await this.outbox.enqueue(manager, 'auth.user.activated', toUserSnapshot(user));
      return { kind: 'session', session: await this.sessions.open(user, appId, manager) } as const;
    });
  }
}
