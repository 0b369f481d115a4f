import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { Role } from '@wp/contracts';
import type { SelectQueryBuilder } from 'typeorm';
import { escapeLike } from '../tenants/project-list.js';
import { SentinelPass } from './sentinel-pass.entity.js';

/** Validated filters of the pass lists (docs/org.md § Sentinel Pass). */
export interface SentinelPassFilter {
  active?: boolean;
  credentialType?: string;
  /** Case-insensitive substring of the title (`%`, `_` match themselves). */
  search?: string;
  /** Passes holding all of these tags. */
  tags?: string[];
}

/** One `api_request` count per pass, from a batch of activity entries. */
export interface PassUsage {
  passId: string;
  count: number;
  lastUsedAt: Date;
}

/** Fields a command may change (plus the bookkeeping the repository does itself). */
export type SentinelPassChanges = Partial<
  Pick<
    SentinelPass,
    | 'title'
    | 'description'
    | 'permissions'
    | 'allowedReferers'
    | 'credentialType'
    | 'scopes'
    | 'expiresAt'
    | 'tags'
    | 'active'
    | 'keyHash'
  >
> & { rotated?: boolean };

/** Sentinel Passes: the only code that reads or writes `sentinel_pass`. */
@Injectable()
export class SentinelPassesRepository {
  constructor(private readonly txHost: TxHost) {}

  async insert(pass: Partial<SentinelPass>): Promise<SentinelPass> {
    const manager = activeTransaction(this.txHost);
    await manager.insert(SentinelPass, pass);
    return manager.findOneByOrFail(SentinelPass, { id: pass.id });
  }

  /** A pass of a project, row-locked for the rest of the transaction when `lock`. */
  find(
    projectId: number,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<SentinelPass | null> {
    // A row lock only means something inside the command's transaction.
    const manager = options.lock ? activeTransaction(this.txHost) : this.txHost.tx;
    return manager.findOne(SentinelPass, {
      where: { projectId, id },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Applies `changes`, bumps `version` (and `last_rotated` when rotated); returns the row. */
  async update(id: string, changes: SentinelPassChanges): Promise<SentinelPass> {
    const manager = activeTransaction(this.txHost);
    const { rotated, ...fields } = changes;
    await manager.update(
      SentinelPass,
      { id },
      {
        ...fields,
        version: () => 'version + 1',
        ...(rotated ? { lastRotated: () => 'now()' } : {}),
      },
    );
    return manager.findOneByOrFail(SentinelPass, { id });
  }

  /** `credential_epoch + 1` (the change ended the epoch); returns the row. */
  async endCredentialEpoch(id: string): Promise<SentinelPass> {
    const manager = activeTransaction(this.txHost);
    await manager.update(SentinelPass, { id }, { credentialEpoch: () => 'credential_epoch + 1' });
    return manager.findOneByOrFail(SentinelPass, { id });
  }

  async delete(id: string): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.delete(SentinelPass, { id });
  }

  /** Every pass of a project, row-locked (project deletion announces each as deleted). */
  lockAllOfProject(projectId: number): Promise<SentinelPass[]> {
    const manager = activeTransaction(this.txHost);
    return manager.find(SentinelPass, {
      where: { projectId },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** A project's passes matching `filter`, oldest first. */
  listForProject(projectId: number, filter: SentinelPassFilter = {}): Promise<SentinelPass[]> {
    const qb = this.txHost.tx
      .getRepository(SentinelPass)
      .createQueryBuilder('sp')
      .where('sp.project_id = :projectId', { projectId });
    return applyFilter(qb, filter)
      .orderBy('sp.created_at', 'ASC')
      .addOrderBy('sp.id', 'ASC')
      .getMany();
  }

  /**
   * Passes of the organization's projects the user can see (effective project role not null:
   * organization OWNER/ADMIN see every project, anyone else the projects they are an explicit
   * member of with access), matching `filter`; by project, then oldest first. One query.
   */
  listForOrganization(
    organizationId: number,
    userId: string,
    organizationRole: Role | null,
    filter: SentinelPassFilter = {},
  ): Promise<SentinelPass[]> {
    const qb = this.txHost.tx
      .getRepository(SentinelPass)
      .createQueryBuilder('sp')
      .where('sp.organization_id = :organizationId', { organizationId });
    if (organizationRole !== 'OWNER' && organizationRole !== 'ADMIN') {
      qb.andWhere(
        `EXISTS (SELECT 1 FROM project_membership pm WHERE pm.project_id = sp.project_id
           AND pm.user_id = :userId AND NOT pm.access_denied)`,
        { userId },
      );
    }
    return applyFilter(qb, filter)
      .orderBy('sp.project_id', 'ASC')
      .addOrderBy('sp.created_at', 'ASC')
      .addOrderBy('sp.id', 'ASC')
      .getMany();
  }

  /** Number of passes of a project (what `project.tools_count` holds). */
  countForProject(projectId: number): Promise<number> {
    const manager = activeTransaction(this.txHost);
    return manager.countBy(SentinelPass, { projectId });
  }

  /**
   * Adds usage in one statement: `usage_count += count`, `last_used_at` = the latest of the
   * stored and the new time. Rows are locked in id order first so two concurrent batches never
   * deadlock. Unknown (deleted) pass ids are ignored.
   */
  async addUsage(usage: PassUsage[]): Promise<void> {
    const manager = activeTransaction(this.txHost);
    if (usage.length === 0) return;
    await manager.query(
      `WITH c AS (
         SELECT u.id, u.n, u.at FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[]) AS u(id, n, at)
       ), locked AS (
         SELECT sp.id FROM sentinel_pass sp WHERE sp.id IN (SELECT id FROM c) ORDER BY sp.id FOR UPDATE
       )
       UPDATE sentinel_pass sp
       SET usage_count = sp.usage_count + c.n,
           last_used_at = GREATEST(coalesce(sp.last_used_at, c.at), c.at)
       FROM c WHERE sp.id = c.id AND sp.id IN (SELECT id FROM locked)`,
      [
        usage.map((u) => u.passId),
        usage.map((u) => u.count),
        usage.map((u) => u.lastUsedAt.toISOString()),
      ],
    );
  }
}

function applyFilter(
  qb: SelectQueryBuilder<SentinelPass>,
  filter: SentinelPassFilter,
): SelectQueryBuilder<SentinelPass> {
  if (filter.active !== undefined) qb.andWhere('sp.active = :active', { active: filter.active });
  if (filter.credentialType !== undefined) {
    qb.andWhere('sp.credential_type = :credentialType', { credentialType: filter.credentialType });
  }
  if (filter.search) {
    qb.andWhere(`sp.title ILIKE :search ESCAPE '\\'`, {
      search: `%${escapeLike(filter.search)}%`,
    });
  }
  if (filter.tags && filter.tags.length > 0) {
    qb.andWhere('sp.tags @> CAST(:tags AS text[])', { tags: filter.tags });
  }
  return qb;
}
