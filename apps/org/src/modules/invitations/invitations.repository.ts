import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import { IsNull } from 'typeorm';
import { Invitation } from './invitation.entity.js';

/** An invitation with the names the invitee needs to decide (`/me/pending_invitations`). */
export interface InvitationWithNames {
  invitation: Invitation;
  organizationName: string;
  projectName: string | null;
}

/** Invitations: the only code that reads or writes `invitation`. */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly txHost: TxHost) {}

  async insert(invitation: Invitation): Promise<Invitation> {
    const manager = activeTransaction(this.txHost);
    await manager.insert(Invitation, invitation);
    return manager.findOneByOrFail(Invitation, { id: invitation.id });
  }

  async update(id: string, changes: Partial<Invitation>): Promise<Invitation> {
    const manager = activeTransaction(this.txHost);
    await manager.update(Invitation, { id }, changes);
    return manager.findOneByOrFail(Invitation, { id });
  }

  /** One invitation by id, optionally row-locked for a state change. */
  findById(id: string, options: { lock?: boolean } = {}): Promise<Invitation | null> {
    // A row lock only means something inside the command's transaction.
    const manager = options.lock ? activeTransaction(this.txHost) : this.txHost.tx;
    return manager.findOne(Invitation, {
      where: { id },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /**
   * The pending invitation (expired or not) of an email key (`emailKey` of `@wp/identity`) to an
   * organization or project, locked.
   */
  findPending(
    organizationId: number,
    projectId: number | null,
    emailKey: string,
  ): Promise<Invitation | null> {
    const manager = activeTransaction(this.txHost);
    return manager.findOne(Invitation, {
      where: { organizationId, projectId: projectId ?? IsNull(), emailKey, status: 'pending' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Pending invitations (expired included) of an organization (`projectId` null) or a project. */
  listPending(organizationId: number, projectId: number | null): Promise<Invitation[]> {
    return this.txHost.tx.getRepository(Invitation).find({
      where: { organizationId, projectId: projectId ?? IsNull(), status: 'pending' },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /**
   * Unexpired pending invitations sent to an email key (any spelling of the address), with
   * organization and project names.
   */
  async listPendingForEmail(emailKey: string): Promise<InvitationWithNames[]> {
    const rows = await this.txHost.tx
      .getRepository(Invitation)
      .createQueryBuilder('i')
      .innerJoin('organization', 'o', 'o.id = i.organization_id')
      .leftJoin('project', 'p', 'p.id = i.project_id')
      .addSelect('o.name', 'organization_name')
      .addSelect('p.name', 'project_name')
      .where('i.email_key = :emailKey', { emailKey })
      .andWhere("i.status = 'pending'")
      .andWhere('i.expires_at > now()')
      .orderBy('i.created_at', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .getRawAndEntities<{ organization_name: string; project_name: string | null }>();
    return rows.entities.map((invitation, i) => ({
      invitation,
      organizationName: rows.raw[i].organization_name,
      projectName: rows.raw[i].project_name,
    }));
  }

  /** Names shown in the invitation mail. */
  async names(
    organizationId: number,
    projectId: number | null,
  ): Promise<{ organizationName: string; projectName: string | null }> {
    const manager = activeTransaction(this.txHost);
    const rows: { organization_name: string; project_name: string | null }[] = await manager.query(
      `SELECT o.name AS organization_name, p.name AS project_name
       FROM organization o LEFT JOIN project p ON p.id = $2 AND p.organization_id = o.id
       WHERE o.id = $1`,
      [organizationId, projectId],
    );
    return {
      organizationName: rows[0]?.organization_name ?? '',
      projectName: rows[0]?.project_name ?? null,
    };
  }
}
