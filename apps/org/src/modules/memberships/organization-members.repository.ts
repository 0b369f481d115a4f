import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import {
  memberDirectorySql,
  toMemberDirectoryFields,
  type MemberDirectoryFields,
  type RawMemberDirectoryFields,
} from './member-directory.js';
import { OrganizationMembership } from './organization-membership.entity.js';

/** A membership with the user's directory entry. */
export interface MemberRow extends MemberDirectoryFields {
  organizationId: number;
  userId: string;
  role: Role;
  createdAt: Date;
  updatedAt: Date;
}

interface RawMemberRow extends RawMemberDirectoryFields {
  organization_id: number;
  user_id: string;
  role: Role;
  created_at: Date;
  updated_at: Date;
}

const directory = memberDirectorySql('m');
const MEMBER_SELECT = `SELECT m.organization_id, m.user_id, m.role, m.created_at, m.updated_at,
         ${directory.columns}
       FROM organization_membership m
       ${directory.join}`;

function toMemberRow(r: RawMemberRow): MemberRow {
  return {
    organizationId: r.organization_id,
    userId: r.user_id,
    role: r.role,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ...toMemberDirectoryFields(r),
  };
}

/** Organization memberships: the only code that reads or writes `organization_membership`. */
@Injectable()
export class OrganizationMembersRepository {
  constructor(private readonly txHost: TxHost) {}

  /** Members of several organizations at once (one query), oldest membership first. */
  async findByOrganizations(organizationIds: number[]): Promise<MemberRow[]> {
    if (organizationIds.length === 0) return [];
    const rows: RawMemberRow[] = await this.txHost.tx.query(
      `${MEMBER_SELECT} WHERE m.organization_id = ANY($1::int[])
       ORDER BY m.organization_id, m.created_at, m.user_id`,
      [organizationIds],
    );
    return rows.map(toMemberRow);
  }

  /** One member with directory entry, or null. */
  async findMember(organizationId: number, userId: string): Promise<MemberRow | null> {
    const manager = this.txHost.tx;
    const rows: RawMemberRow[] = await manager.query(
      `${MEMBER_SELECT} WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    return rows[0] ? toMemberRow(rows[0]) : null;
  }

  find(organizationId: number, userId: string): Promise<OrganizationMembership | null> {
    const manager = this.txHost.tx;
    return manager.findOneBy(OrganizationMembership, { organizationId, userId });
  }

  async insert(
    membership: Pick<OrganizationMembership, 'organizationId' | 'userId' | 'role' | 'version'>,
  ): Promise<OrganizationMembership> {
    const manager = activeTransaction(this.txHost);
    return manager.save(manager.create(OrganizationMembership, membership));
  }

  async updateRole(
    organizationId: number,
    userId: string,
    role: Role,
    version: number,
  ): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.update(OrganizationMembership, { organizationId, userId }, { role, version });
  }

  async delete(organizationId: number, userId: string): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.delete(OrganizationMembership, { organizationId, userId });
  }

  /** Row-locks the organization: every membership command takes this lock first. */
  async lockOrganization(organizationId: number): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.query('SELECT id FROM organization WHERE id = $1 FOR UPDATE', [organizationId]);
  }

  /** Number of OWNERs (call with the organization row locked). */
  countOwners(organizationId: number): Promise<number> {
    const manager = activeTransaction(this.txHost);
    return manager.countBy(OrganizationMembership, { organizationId, role: 'OWNER' });
  }
}
