import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { lookAlikeProblem, parseEmail } from '@wp/identity';
import { Outbox } from '@wp/messaging';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { User } from '../accounts/user.entity.js';
import { toUserSnapshot } from '../accounts/user.snapshot.js';
import { UsersRepository } from '../accounts/users.repository.js';
import { SsoRedirectError } from './federation.errors.js';
import type { OidcConnection } from './oidc-connection.entity.js';
import { UserIdentity } from './user-identity.entity.js';

/** What the provider said about the person, from the validated ID token. */
export interface ProviderClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** The password hash of an account created by a provider sign-in: no password at all. */
export const NO_PASSWORD = '';

/** The account has a password (accounts created by a provider sign-in have none until reset). */
export const hasPassword = (user: Pick<User, 'passwordHash'>): boolean =>
  user.passwordHash !== NO_PASSWORD;

/**
 * Finds or creates the account of a provider identity (docs/auth.md § Sign-in with an OpenID
 * provider, "Accounts"), in the command's transaction (required):
 * 1. a known identity (`iss` + `sub`) signs in its account, unless two-factor is on
 *    (`TWO_FACTOR_REQUIRED`: the password and code are the way in);
 * 2. otherwise a VERIFIED e-mail of an existing account links to it only when that account has
 *    no password and no two-factor (it was itself created by a provider sign-in); an account
 *    with a password or two-factor is refused with `ACCOUNT_LINK_REQUIRED` (sign in with the
 *    password: an e-mail claim proves nothing about who holds that password) — except through
 *    an organization's own connection, whose addresses are at domains the organization proved
 *    it controls (it could reset that password by mail anyway);
 * 3. otherwise, with a verified e-mail that registration would accept (§ Usernames: look-alike
 *    and invisible characters refused), a new active account without password is created.
 * An unverified e-mail never links and never creates (`EMAIL_NOT_VERIFIED`).
 */
@Injectable()
export class SsoAccounts {
  constructor(
    private readonly txHost: TxHost,
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
  ) {}

  async resolve(
    connection: OidcConnection,
    claims: ProviderClaims,
  ): Promise<{ user: User; linked: 'existing' | 'linked' | 'created' }> {
    // The command's transaction (required): identities are read and written in it.
    const identities = activeTransaction(this.txHost).getRepository(UserIdentity);
    const known = await identities.findOneBy({ issuer: claims.issuer, subject: claims.subject });
    if (known) {
      const user = await this.users.findByIdForUpdate(known.userId);
      if (!user || user.status !== 'active') {
        throw new SsoRedirectError('access_denied', 'ACCOUNT_DISABLED', 'The account is disabled.');
      }
      if (user.twoFactorEnabled) {
        // The provider is one factor; the account asked for two (docs/auth.md).
        throw new SsoRedirectError(
          'access_denied',
          'TWO_FACTOR_REQUIRED',
          'This account has two-factor on: sign in with its password and a code.',
        );
      }
      await identities.update({ id: known.id }, { lastSignInAt: new Date(), email: claims.email });
      return { user, linked: 'existing' };
    }
    const email = claims.email ? parseEmail(claims.email) : null;
    if (!email || lookAlikeProblem(claims.email ?? '')) {
      throw new SsoRedirectError(
        'access_denied',
        'INVALID_USERNAME',
        'The provider gave no e-mail address this platform accepts as a username.',
      );
    }
    if (!claims.emailVerified) {
      throw new SsoRedirectError(
        'access_denied',
        'EMAIL_NOT_VERIFIED',
        'The provider does not say the e-mail address is verified.',
      );
    }
    const existing = await this.users.findByUsernameKey(email.key);
    let user: User;
    let linked: 'linked' | 'created';
    if (existing) {
      // An organization's own connection reaches only its DNS-verified domains (SsoFlow): the
      // organization controls that mail, so a password is no extra proof there (docs/decisions.md
      // § Organization SSO); two-factor still is.
      const passwordBlocks = hasPassword(existing) && connection.organizationId === null;
      if (passwordBlocks || existing.twoFactorEnabled || existing.status !== 'active') {
        throw new SsoRedirectError(
          'access_denied',
          'ACCOUNT_LINK_REQUIRED',
          'An account with this e-mail exists: sign in with its password.',
        );
      }
      user = existing;
      linked = 'linked';
    } else {
      user = await this.create(email, claims);
      linked = 'created';
    }
    await identities.insert({
      id: randomUUID(),
      userId: user.id,
      connectionId: connection.id,
      issuer: claims.issuer,
      subject: claims.subject,
      email: claims.email,
      createdAt: new Date(),
      lastSignInAt: new Date(),
    });
    return { user, linked };
  }

  /** A new active account without password, and its events, in the command's transaction. */
  private async create(
    email: { display: string; key: string },
    claims: ProviderClaims,
  ): Promise<User> {
    const now = new Date();
    const [firstName, ...rest] = (claims.name ?? '').trim().split(/\s+/);
    const user: User = {
      id: randomUUID(),
      email: email.display,
      phone: null,
      usernameKey: email.key,
      passwordHash: NO_PASSWORD,
      status: 'active',
      firstName: (firstName ?? '').slice(0, 100),
      lastName: rest.join(' ').slice(0, 100),
      activatedAt: now,
      twoFactorEnabled: false,
      twoFactorVersion: 0,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.users.insert(user))) {
      // Registered concurrently under the same key: the person signs in again and links.
      throw new SsoRedirectError('temporarily_unavailable', 'RETRY', 'Try again.');
    }
    await this.outbox.enqueue('auth.user.registered', toUserSnapshot(user));
    await this.outbox.enqueue('auth.user.activated', toUserSnapshot(user));
    return user;
  }
}
