import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { sessionHasTwoFactors, type Principal } from '@wp/security';
import { AccessService } from '../access/access.service.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { OwnTwoFactorRequiredError } from './security-policy.errors.js';
import { SecurityPolicyRepository } from './security-policy.repository.js';
import type { SecurityPolicyResource } from './security-policy.serializer.js';

/**
 * An organization's security policy (docs/org.md § Two-factor policy): whether members must
 * have two-factor authentication on. Any member reads it; only an OWNER changes it
 * (`organization.manageSecurity`), and only with two-factor on for their own account.
 */
@Injectable()
export class SecurityPolicyService {
  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
    private readonly policies: SecurityPolicyRepository,
    private readonly audit: AuditTrail,
  ) {}

  /** `GET /organizations/{id}/security_policy`. @throws 404; 403 */
  async get(principal: Principal, organizationId: number): Promise<SecurityPolicyResource> {
    const access = await this.access.organizationWith(
      principal,
      organizationId,
      'organization.read',
    );
    return this.resource(
      organizationId,
      access.organization.requireTwoFactor,
      await this.policies.countMembersWithoutTwoFactor(organizationId),
    );
  }

  /**
   * `PATCH /organizations/{id}/security_policy`: under the organization row lock, with the
   * audit entry `organization.security_policy_changed` in the same transaction (none when
   * nothing changes).
   * @throws 404; PermissionDeniedError 403 (not OWNER); OwnTwoFactorRequiredError 422
   */
  async update(
    principal: Principal,
    organizationId: number,
    requireTwoFactor: boolean,
  ): Promise<SecurityPolicyResource> {
    return this.txHost.withTransaction(async () => {
      const access = await this.access.organizationWith(
        principal,
        organizationId,
        'organization.manageSecurity',
        { lock: true },
      );
      // Two factors: the account has TOTP on, or this session was opened with a passkey (the
      // policy lets either in, so the owner is not locking themselves out of this session).
      if (
        requireTwoFactor &&
        !sessionHasTwoFactors(principal) &&
        !(await this.policies.userHasTwoFactor(principal.id))
      ) {
        throw new OwnTwoFactorRequiredError();
      }
      if (access.organization.requireTwoFactor !== requireTwoFactor) {
        await this.policies.setRequireTwoFactor(organizationId, requireTwoFactor);
        await this.audit.record(principal, {
          organizationId,
          action: 'organization.security_policy_changed',
          target: {
            type: 'organization',
            id: String(organizationId),
            label: access.organization.name,
          },
          details: { requireTwoFactor },
        });
      }
      return this.resource(
        organizationId,
        requireTwoFactor,
        await this.policies.countMembersWithoutTwoFactor(organizationId),
      );
    });
  }

  private resource(
    organizationId: number,
    requireTwoFactor: boolean,
    membersWithoutTwoFactor: number,
  ): SecurityPolicyResource {
    return {
      data: {
        type: 'security_policy',
        id: String(organizationId),
        attributes: { requireTwoFactor, membersWithoutTwoFactor },
      },
    };
  }
}
