import { TxHost } from '@wp/persistence';
import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '@wp/http';
import { Outbox } from '@wp/messaging';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { OrgSsoState } from '../federation/org-sso-state.js';
import { NotificationComposer } from '../notifications/notification-composer.js';
import { RateLimits } from '../rate-limits/rate-limits.service.js';
import type { SessionResource } from '../sessions/session.serializer.js';
import type { SessionClient } from '../sessions/sessions.repository.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { User } from '../accounts/user.entity.js';
import { toUserSnapshot } from '../accounts/user.snapshot.js';
import { UsersRepository } from '../accounts/users.repository.js';
import type { ActivationChannel } from './activation-code.entity.js';
import { ActivationCodes } from './activation-codes.js';
import {
  ActivationMethodMismatchError,
  AlreadyActiveError,
  CodeExpiredError,
  CodeLockedError,
  InvalidCodeError,
} from './activation.errors.js';
import { ActivationRepository } from './activation.repository.js';
import {
  toResendActivationResource,
  type ResendActivationResource,
} from './activation.serializer.js';

/** How an account is activated: phone accounts by SMS, email accounts by email. */
export function channelOf(user: Pick<User, 'phone'>): ActivationChannel {
  return user.phone !== null ? 'phone' : 'email';
}

/**
 * Account activation (docs/api.md § States and transitions, Account rows): 6-digit codes that
 * expire (`ACTIVATION_CODE_TTL_SECONDS`, 15 min) and lock after `ACTIVATION_CODE_MAX_ATTEMPTS`
 * (5) wrong tries. Every operation on one account holds its row lock, so two concurrent tries
 * never both count as the last allowed one and one code never activates twice.
 */
@Injectable()
export class ActivationService {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly codes: ActivationRepository,
    private readonly activationCodes: ActivationCodes,
    private readonly composer: NotificationComposer,
    private readonly outbox: Outbox,
    private readonly sessions: SessionsService,
    private readonly limits: RateLimits,
    private readonly ssoState: OrgSsoState,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * Issues a new code for a pending account in the caller's transaction (replacing, and so
   * invalidating, the previous one) and enqueues its mail or SMS (`notify.requested`) in the
   * same transaction.
   */
  async issueCode(user: User): Promise<void> {
    const code = this.activationCodes.generate();
    const now = new Date();
    await this.codes.replace({
      userId: user.id,
      channel: channelOf(user),
      codeHmac: this.activationCodes.digest(user.id, code),
      failedAttempts: 0,
      expiresAt: new Date(now.getTime() + this.config.ACTIVATION_CODE_TTL_SECONDS * 1000),
      createdAt: now,
    });
    await this.outbox.enqueue('notify.requested', this.composer.activation(user, code));
  }

  /**
   * `POST /users/{userId}/activate/email|phone`: a correct code activates the account,
   * publishes `auth.user.activated` and opens a session.
   * @throws NotFoundError 404 unknown account
   * @throws AlreadyActiveError 422; ActivationMethodMismatchError 422
   * @throws CodeExpiredError 422; CodeLockedError 422; InvalidCodeError 422 (attempt counted)
   * @throws SsoRequiredError 403 `SSO_REQUIRED`: the code was right and the account is active,
   *   but its address is at a verified domain of an organization that requires single sign-on
   *   (docs/auth.md § Organization single sign-on): no session, the person signs in through
   *   the organization's connection
   */
  async activate(
    userId: string,
    method: ActivationChannel,
    code: string,
    appId: string,
    client: SessionClient,
  ): Promise<SessionResource> {
    const outcome = await this.txHost.withTransaction(async () => {
      const user = await this.pendingAccount(userId);
      const expected = channelOf(user);
      if (expected !== method) throw new ActivationMethodMismatchError(expected);
      const pending = await this.codes.find(userId);
      if (!pending || pending.expiresAt.getTime() <= Date.now()) throw new CodeExpiredError();
      const max = this.config.ACTIVATION_CODE_MAX_ATTEMPTS;
      if (pending.failedAttempts >= max) throw new CodeLockedError();
      if (!this.activationCodes.matches(userId, code, pending.codeHmac)) {
        const failures = await this.codes.recordFailure(userId);
        return { ok: false, attemptsRemaining: Math.max(0, max - failures) } as const;
      }
      await this.codes.delete(userId);
      const active = await this.users.activate(user);
      await this.outbox.enqueue('auth.user.activated', toUserSnapshot(active));
      const refusal = await this.ssoState.refusal(active.email);
      if (refusal) return { ok: 'sso_required', refusal } as const;
      return {
        ok: true,
        session: await this.sessions.open(active, appId, client),
      } as const;
    });
    // Thrown after commit, so the failed attempt stays counted.
    if (!outcome.ok) throw new InvalidCodeError(outcome.attemptsRemaining);
    if (outcome.ok === 'sso_required') throw outcome.refusal;
    return outcome.session;
  }

  /**
   * `POST /users/{userId}/resend_activation`: a new code by the account's channel; the previous
   * code stops working.
   * @throws RateLimitedError 429 beyond `ACTIVATION_RESEND_LIMIT` per window
   * @throws NotFoundError 404; AlreadyActiveError 422
   */
  async resend(userId: string): Promise<ResendActivationResource> {
    await this.limits.consume('activation_resend', userId);
    const user = await this.txHost.withTransaction(async () => {
      const pending = await this.pendingAccount(userId);
      await this.issueCode(pending);
      return pending;
    });
    return toResendActivationResource(
      user.id,
      channelOf(user),
      this.config.ACTIVATION_CODE_TTL_SECONDS,
    );
  }

  private async pendingAccount(userId: string): Promise<User> {
    const user = await this.users.findByIdForUpdate(userId);
    if (!user) throw new NotFoundError('User');
    if (user.status !== 'pending_activation') throw new AlreadyActiveError();
    return user;
  }
}
