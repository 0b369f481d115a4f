import { Injectable } from '@nestjs/common';
import type { Role } from '@wp/contracts';
import { Outbox } from '@wp/messaging';
import type { EntityManager } from 'typeorm';
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
 */
@Injectable()
export class MembershipEvents {
  constructor(
    private readonly versions: MembershipVersionRepository,
    private readonly outbox: Outbox,
  ) {}

  /** @returns the version the event carries (store it on the membership row). */
  async changed(change: MembershipChange, manager: EntityManager): Promise<number> {
    const version = await this.versions.next(
      change.organizationId,
      change.projectId ?? 0,
      change.userId,
      manager,
    );
    await this.outbox.enqueue(manager, 'org.membership.changed', { ...change, version });
    return version;
  }
}
