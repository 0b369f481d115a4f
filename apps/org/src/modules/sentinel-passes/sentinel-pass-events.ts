import { Inject, Injectable } from '@nestjs/common';
import type { EventPayload } from '@wp/contracts';
import { DomainError } from '@wp/http';
import { Outbox } from '@wp/messaging';
import {
  agentSessionId,
  credentialEpochEnds,
  ENDED_EPOCH_DENY_SECONDS,
  RevocationList,
  type PassCredentialState,
} from '@wp/security';
import { ORG_CONFIG, type OrgConfig } from '../../config/org.config.js';
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
    private readonly revocations: RevocationList,
    @Inject(ORG_CONFIG) private readonly config: OrgConfig,
  ) {}

  /**
   * Announces the pass as it is now (after create, update, rotate, revoke, activate). Call it
   * last in the transaction: it may deny-list tokens.
   * @param before the row-locked pass before the change (none at creation)
   * @returns the pass with its credential epoch
   * @throws DomainError 503 `UNAVAILABLE` when the deny-list store does not answer
   */
  async changed(pass: SentinelPass, before?: SentinelPass): Promise<SentinelPass> {
    const ends = before !== undefined && credentialEpochEnds(state(before), state(pass));
    const now = ends ? await this.passes.endCredentialEpoch(pass.id) : pass;
    await this.outbox.enqueue('org.sentinel_pass.changed', {
      ...payload(now),
      active: now.active,
      deleted: false,
      keyHash: now.keyHash,
      version: now.version,
      credentialEpoch: now.credentialEpoch,
    });
    if (ends) await this.refuseTokens(before);
    return now;
  }

  /**
   * Deletes a (row-locked) pass and announces it: the key stops working and its agent tokens
   * are refused at once. @throws DomainError 503 `UNAVAILABLE` (deny-list store)
   */
  async deleteAndAnnounce(pass: SentinelPass): Promise<void> {
    await this.passes.delete(pass.id);
    await this.outbox.enqueue('org.sentinel_pass.changed', {
      ...payload(pass),
      active: false,
      deleted: true,
      keyHash: null,
      version: pass.version + 1,
      credentialEpoch: pass.credentialEpoch + 1,
    });
    await this.refuseTokens(pass);
  }

  /**
   * Project deletion (same transaction, before the project row goes): every pass of the
   * project is announced deleted; the rows themselves go with the project (ON DELETE CASCADE).
   */
  async deleteAllOfProject(projectId: number): Promise<void> {
    for (const pass of await this.passes.lockAllOfProject(projectId)) {
      await this.deleteAndAnnounce(pass);
    }
  }

  /** Deny-lists the agent tokens of the pass's current (now ended) credential epoch. */
  private async refuseTokens(pass: SentinelPass): Promise<void> {
    const sid = agentSessionId(pass.id, pass.credentialEpoch);
    const ttl = Math.max(this.config.ACCESS_TOKEN_TTL_SECONDS, ENDED_EPOCH_DENY_SECONDS);
    await this.revocations.revokeSession(sid, ttl).catch((error: unknown) => {
      throw new DomainError('unavailable', 'UNAVAILABLE', 'Service unavailable', {
        detail: `The agent tokens of the Sentinel Pass could not be refused (${(error as Error).message}); nothing changed. Retry shortly.`,
        retryAfter: 1,
      });
    });
  }
}

type Common = Omit<
  EventPayload<'org.sentinel_pass.changed'>,
  'active' | 'deleted' | 'keyHash' | 'version' | 'credentialEpoch'
>;

function payload(pass: SentinelPass): Common {
  return {
    passId: pass.id,
    organizationId: pass.organizationId,
    projectId: pass.projectId,
    title: pass.title,
    expiresAt: pass.expiresAt ? pass.expiresAt.toISOString() : null,
    allowedReferers: pass.allowedReferers,
    scopes: pass.scopes,
    permissions: pass.permissions,
  };
}

function state(pass: SentinelPass): PassCredentialState {
  return {
    active: pass.active,
    deleted: false,
    keyHash: pass.keyHash,
    permissions: pass.permissions,
    scopes: pass.scopes,
  };
}
