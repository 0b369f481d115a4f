import { Injectable } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import type { EntityManager } from 'typeorm';
import type { SentinelPass } from './sentinel-pass.entity.js';
import { SentinelPassesRepository } from './sentinel-passes.repository.js';

/**
 * `org.sentinel_pass.changed` (docs/architecture.md § Data ownership and events): the credential
 * state auth needs for agent token exchange, written to the outbox in the transaction of the
 * change. `version` is the pass's row version (1 at creation, +1 per change, under the row lock, so
 * versions follow commit order); a deletion announces `version + 1` with `deleted: true` and
 * `keyHash: null`.
 */
@Injectable()
export class SentinelPassEvents {
  constructor(
    private readonly outbox: Outbox,
    private readonly passes: SentinelPassesRepository,
  ) {}

  /** Announces the pass as it is now (after create, update, rotate, revoke, activate). */
  async changed(pass: SentinelPass, manager: EntityManager): Promise<void> {
    await this.outbox.enqueue(manager, 'org.sentinel_pass.changed', {
      passId: pass.id,
      organizationId: pass.organizationId,
      projectId: pass.projectId,
      title: pass.title,
      active: pass.active,
      deleted: false,
      keyHash: pass.keyHash,
      expiresAt: pass.expiresAt ? pass.expiresAt.toISOString() : null,
      allowedReferers: pass.allowedReferers,
      scopes: pass.scopes,
      permissions: pass.permissions,
      version: pass.version,
    });
  }

  /** Deletes a (row-locked) pass and announces it: the key stops working at once. */
  async deleteAndAnnounce(pass: SentinelPass, manager: EntityManager): Promise<void> {
    await this.passes.delete(pass.id, manager);
    await this.outbox.enqueue(manager, 'org.sentinel_pass.changed', {
      passId: pass.id,
      organizationId: pass.organizationId,
      projectId: pass.projectId,
      title: pass.title,
      active: false,
      deleted: true,
      keyHash: null,
      expiresAt: pass.expiresAt ? pass.expiresAt.toISOString() : null,
      allowedReferers: pass.allowedReferers,
      scopes: pass.scopes,
      permissions: pass.permissions,
      version: pass.version + 1,
    });
  }

  /**
   * Project deletion (same transaction, before the project row goes): every pass of the
   * project is announced deleted; the rows themselves go with the project (ON DELETE CASCADE).
   */
  async deleteAllOfProject(projectId: number, manager: EntityManager): Promise<void> {
    for (const pass of await this.passes.lockAllOfProject(projectId, manager)) {
      await this.deleteAndAnnounce(pass, manager);
    }
  }
}
