import { Injectable, Optional } from '@nestjs/common';
import type { RpcResponse } from '@wp/contracts';
import { DomainError } from '@wp/http';
import { CacheRebuilder, TenantVersionStore } from '@wp/security';
import { RpcClient } from '../rpc.js';

/**
 * A user's standing towards one organization and (optionally) one of its projects, as a read
 * model of `org.membership.changed` holds it or as org answers it.
 */
export type MembershipRoles = RpcResponse<'org.rpc.memberships.standing'> & {
  /**
   * The organization permission version the read model has applied (0 or absent: none), compared
   * with the required one by {@link PermissionFreshness}.
   */
  appliedVersion?: number;
};

/** Roles remembered at most (users × organizations × projects of this process's traffic). */
const MAX_REMEMBERED = 50_000;

/** How long the store and org may take before the request fails closed, ms. */
const CONFIRM_TIMEOUT_MS = 1000;

/** 503 + `Retry-After` when the current permission cannot be confirmed (never allow). */
function cannotConfirm(what: string): DomainError {
  return new DomainError('unavailable', 'UNAVAILABLE', 'Service unavailable', {
    detail: `Your current permission could not be confirmed (${what}). Retry shortly.`,
    retryAfter: 1,
  });
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Withdrawn permissions are honoured at once (docs/architecture.md § Withdrawn permissions at
 * once): before a user's roles from a service's membership read model decide about an
 * organization's or project's money or data (wallet's wallets, auth's Sentinel Pass activity), the organization's required permission version is read from the
 * {@link TenantVersionStore}; when the read model has applied less, org answers instead
 * (`org.rpc.memberships.standing`). A store that cannot vouch for the required version (Redis
 * emptied, org's rebuild not done: docs/architecture.md § Redis is a cache) counts as "behind":
 * org answers, and org is asked to rebuild. Store or org not answering within 1 s → 503
 * `UNAVAILABLE` with `Retry-After: 1` (fail closed); other organizations are not affected.
 */
@Injectable()
export class PermissionFreshness {
  /**
   * Roles the read model gave, by user / organization / project, each with the organization
   * version it had applied: valid for as long as the required version has not passed it (every
   * membership change of the organization raises that version before org answers), so the hot
   * path ({@link current}) costs the store read alone. Oldest entries go first beyond the bound.
   */
  private readonly remembered = new Map<string, MembershipRoles>();

  constructor(
    private readonly store: TenantVersionStore,
    private readonly rpc: RpcClient,
    @Optional() private readonly rebuilder?: CacheRebuilder,
  ) {}

  /**
   * The roles to decide with: `roles` when the read model is current for the organization,
   * else org's authoritative answer.
   * @throws DomainError 503 `UNAVAILABLE` (store) / `UPSTREAM_UNAVAILABLE` (org)
   */
  async confirm(
    userId: string,
    organizationId: number,
    projectId: number | null,
    roles: MembershipRoles,
  ): Promise<MembershipRoles> {
    const required = await this.required(organizationId);
    if (required <= (roles.appliedVersion ?? 0)) return roles;
    return this.authoritative(userId, organizationId, projectId);
  }

  /**
   * The current roles of a user towards an organization (and project), loading them from the
   * read model with `load` only when the ones remembered from an earlier load are older than
   * the organization's required version; as {@link confirm} otherwise. Nothing is remembered
   * while the required version is 0 (no versioned change known: the store may have lost it).
   * @throws DomainError 503 `UNAVAILABLE` (store) / `UPSTREAM_UNAVAILABLE` (org)
   */
  async current(
    userId: string,
    organizationId: number,
    projectId: number | null,
    load: () => Promise<MembershipRoles>,
  ): Promise<MembershipRoles> {
    const required = await this.required(organizationId);
    const key = `${userId}/${organizationId}/${projectId ?? ''}`;
    const known = this.remembered.get(key);
    if (known && required > 0 && required <= (known.appliedVersion ?? 0)) return known;
    const roles = await load();
    if (required > (roles.appliedVersion ?? 0)) {
      return this.authoritative(userId, organizationId, projectId);
    }
    if (required > 0) this.remember(key, roles);
    return roles;
  }

  /**
   * The organization's required permission version (0: none known; Infinity: the store cannot
   * vouch for it, so no read model is current).
   */
  private async required(organizationId: number): Promise<number> {
    let required: number | null;
    try {
      required = await within(this.store.current(String(organizationId)), CONFIRM_TIMEOUT_MS);
    } catch (error) {
      throw cannotConfirm((error as Error).message);
    }
    if (required !== null) return required;
    this.rebuilder?.request(['org']);
    return Number.POSITIVE_INFINITY;
  }

  private authoritative(
    userId: string,
    organizationId: number,
    projectId: number | null,
  ): Promise<MembershipRoles> {
    return this.rpc.request(
      'org.rpc.memberships.standing',
      { organizationId, projectId, userId },
      CONFIRM_TIMEOUT_MS,
    );
  }

  private remember(key: string, roles: MembershipRoles): void {
    this.remembered.delete(key);
    this.remembered.set(key, roles);
    if (this.remembered.size > MAX_REMEMBERED) {
      this.remembered.delete(this.remembered.keys().next().value as string);
    }
  }
}
