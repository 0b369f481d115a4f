import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import { DomainError } from '@wp/http';
import { Outbox } from '@wp/messaging';
import { lockCacheWrites, TenantVersionStore } from '@wp/security';
import { MembershipVersionRepository } from './membership-version.repository.js';

export interface MembershipChange {
  organizationId: number;
  /** null: the organization-level membership. */
  projectId: number | null;
  userId: string;
  /** null: no membership any more. */
  role: Role | null;
  accessDenied: boolean;
}

/**
 * Publishes `org.membership.changed` (docs/architecture.md § Data ownership and events) for one
 * (organization, project, user) in the caller's transaction, with the next version of that triple.
 * Every membership write goes through here, so consumers (wallet, auth) can rely on strictly
 * increasing versions.
 *
 * Each change also takes the organization's next permission version (`organizationVersion`)
 * and raises the organization's required version in the {@link TenantVersionStore} to it
 * before the transaction commits, so before the request answers: from then on a service whose
 * read model has not applied the event yet asks org instead (docs/architecture.md § Withdrawn
 * permissions at once). When the store does not answer the change fails (503) and nothing is
 * committed: a withdrawal is never answered without being enforceable.
 */
@Injectable()
export class MembershipEvents {
  constructor(
    private readonly txHost: TxHost,
    private readonly versions: MembershipVersionRepository,
    private readonly outbox: Outbox,
    private readonly tenantVersions: TenantVersionStore,
  ) {}

  /** @returns the version the event carries (store it on the membership row). */
  async changed(change: MembershipChange): Promise<number> {
    const version = await this.versions.next(
      change.organizationId,
      change.projectId ?? 0,
      change.userId,
    );
    const organizationVersion = await this.organizationWithdrawal(change.organizationId);
    await this.outbox.enqueue('org.membership.changed', {
      ...change,
      version,
      organizationVersion,
    });
    return version;
  }

  /**
   * Takes the organization's next permission version and raises the required version to it in
   * the caller's transaction, for a change the caller's own event carries: every membership
   * change ({@link changed}), and a deleted project, which withdraws every right to its wallets
   * and data without being one membership's change (`org.project.deleted`).
   * @throws DomainError 503 `UNAVAILABLE` when the store does not answer (nothing is committed)
   */
  async organizationWithdrawal(organizationId: number): Promise<number> {
    const organizationVersion = await this.versions.nextOrganization(organizationId);
    // Held until commit: a rebuild of the store waits for this version to be committed
    // (docs/architecture.md § Redis is a cache).
    await lockCacheWrites(this.txHost);
    await this.tenantVersions
      .raise(String(organizationId), organizationVersion)
      .catch((error: unknown) => {
        throw new DomainError('unavailable', 'UNAVAILABLE', 'Service unavailable', {
          detail: `The permission change could not be published (${(error as Error).message}); nothing changed. Retry shortly.`,
          retryAfter: 1,
        });
      });
    return organizationVersion;
  }
}
