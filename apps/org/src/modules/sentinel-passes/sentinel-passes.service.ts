import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { parseIsoInstant, ValidationFailedError } from '@wp/http';
import type { Principal } from '@wp/security';
import { randomUUID } from 'node:crypto';
import type { AuditAction } from '@wp/contracts';
import { AccessService, type ProjectAccess } from '../access/access.service.js';
import { credentialAudit } from '../audit/audit-events.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { ProjectsRepository } from '../tenants/projects.repository.js';
import { newSentinelKey } from './sentinel-key.js';
import { SentinelPassEvents } from './sentinel-pass-events.js';
import type { SentinelPass } from './sentinel-pass.entity.js';
import {
  SentinelPassAlreadyActiveError,
  SentinelPassAlreadyRevokedError,
  SentinelPassNotFoundError,
  SentinelPassRevokedError,
} from './sentinel-passes.errors.js';
import {
  SentinelPassesRepository,
  type SentinelPassChanges,
  type SentinelPassFilter,
} from './sentinel-passes.repository.js';

/** The `sentinelPass` fields of a create or update, validated by the DTO. */
export interface SentinelPassInput {
  title?: string;
  description?: string | null;
  permissions?: string[];
  allowedReferers?: string[];
  credentialType?: string;
  scopes?: string[];
  expiresAt?: string | null;
  tags?: string[];
}

/** A pass with its key in clear: only the create and rotate answers carry one. */
export interface PassWithKey {
  pass: SentinelPass;
  key: string;
}

type Where = { principal: Principal; organizationId: number; projectId: number };

/**
 * Sentinel Passes (docs/api.md § Sentinel Passes, docs/api.md § States and transitions;
 * docs/architecture.md § Decisions where the contract is silent "Sentinel Pass key"). Reads need
 * `sentinelPass.read` (VIEWER+), changes `sentinelPass.manage` (ADMIN+) on the caller's effective
 * project role; a project the caller cannot see is 404. Each command is one transaction under the
 * organization lock (as every project command), with its `org.sentinel_pass.changed` in the outbox
 * and, for create and delete, `project.tools_count` recomputed.
 */
@Injectable()
export class SentinelPassesService {
  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
    private readonly passes: SentinelPassesRepository,
    private readonly projects: ProjectsRepository,
    private readonly events: SentinelPassEvents,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * `POST S`: a new active pass and its key (returned once, stored only as its hash).
   * @throws 400 `expiresAt` not in the future; 404; 403 `FORBIDDEN`
   */
  async create(where: Where, input: SentinelPassInput & { title: string }): Promise<PassWithKey> {
    const expiresAt = futureOrNull(input.expiresAt);
    return this.txHost.withTransaction(async () => {
      const { project } = await this.manageable(where);
      const { key, keyHash } = newSentinelKey();
      const pass = await this.passes.insert({
        id: randomUUID(),
        organizationId: project.organizationId,
        projectId: project.id,
        title: input.title,
        description: input.description ?? '',
        entityType: 'project',
        credentialType: input.credentialType ?? 'api_key',
        permissions: input.permissions ?? [],
        allowedReferers: unique(input.allowedReferers),
        scopes: unique(input.scopes),
        tags: unique(input.tags),
        expiresAt: expiresAt ?? null,
        active: true,
        keyHash,
        lastRotated: null,
        version: 1,
        createdBy: where.principal.id,
      });
      await this.projects.recountTools(project.id);
      await this.events.changed(pass);
      await this.note(where, 'sentinel_pass.created', pass);
      return { pass, key };
    });
  }

  /** `GET S`: the project's passes matching `filter`, oldest first. @throws 404 */
  async list(where: Where, filter: SentinelPassFilter): Promise<SentinelPass[]> {
    await this.readable(where);
    return this.passes.listForProject(where.projectId, filter);
  }

  /**
   * `GET /organizations/{id}/sentinel_passes`: passes of every project of the organization the
   * caller can see (all of them for organization OWNER/ADMIN). @throws 404
   */
  async listForOrganization(
    principal: Principal,
    organizationId: number,
    filter: SentinelPassFilter,
  ): Promise<SentinelPass[]> {
    const access = await this.access.organization(principal, organizationId);
    return this.passes.listForOrganization(organizationId, principal.id, access.role, filter);
  }

  /** `GET S/{id}`. @throws 404 */
  async get(where: Where, passId: string): Promise<SentinelPass> {
    await this.readable(where);
    const pass = await this.passes.find(where.projectId, passId);
    if (!pass) throw new SentinelPassNotFoundError();
    return pass;
  }

  /**
   * `PUT S/{id}`: changes the fields sent (absent ones are kept; the key, `active` and the
   * owner never change here). @throws 400; 404; 403
   */
  async update(where: Where, passId: string, input: SentinelPassInput): Promise<SentinelPass> {
    const expiresAt = futureOrNull(input.expiresAt);
    const changes: SentinelPassChanges = {};
    if (input.title !== undefined) changes.title = input.title;
    if (input.description !== undefined) changes.description = input.description ?? '';
    if (input.credentialType !== undefined) changes.credentialType = input.credentialType;
    if (input.permissions !== undefined) changes.permissions = input.permissions;
    if (input.allowedReferers !== undefined)
      changes.allowedReferers = unique(input.allowedReferers);
    if (input.scopes !== undefined) changes.scopes = unique(input.scopes);
    if (input.tags !== undefined) changes.tags = unique(input.tags);
    if (expiresAt !== undefined) changes.expiresAt = expiresAt;
    return this.command(where, passId, 'sentinel_pass.updated', (pass) =>
      this.passes.update(pass.id, changes),
    );
  }

  /**
   * `POST S/{id}/rotate_key`: a new key; the agent tokens issued so far are refused everywhere
   * before the answer (`SentinelPassEvents`), and auth refuses the old key at once.
   * `lastRotated` = now. 503 when the deny-list store does not answer (nothing changed).
   * @throws 409 `SENTINEL_PASS_REVOKED` for a revoked pass; 404; 403
   */
  async rotateKey(where: Where, passId: string): Promise<PassWithKey> {
    const { key, keyHash } = newSentinelKey();
    const pass = await this.command(where, passId, 'sentinel_pass.rotated', (current) => {
      if (!current.active) throw new SentinelPassRevokedError();
      return this.passes.update(current.id, { keyHash, rotated: true });
    });
    return { pass, key };
  }

  /**
   * `POST S/{id}/revoke`: `active` false, record kept. @throws 409 `SENTINEL_PASS_ALREADY_REVOKED`
   */
  revoke(where: Where, passId: string): Promise<SentinelPass> {
    return this.command(where, passId, 'sentinel_pass.revoked', (pass) => {
      if (!pass.active) throw new SentinelPassAlreadyRevokedError();
      return this.passes.update(pass.id, { active: false });
    });
  }

  /** `POST S/{id}/activate`: `active` true. @throws 409 `SENTINEL_PASS_ALREADY_ACTIVE` */
  activate(where: Where, passId: string): Promise<SentinelPass> {
    return this.command(where, passId, 'sentinel_pass.activated', (pass) => {
      if (pass.active) throw new SentinelPassAlreadyActiveError();
      return this.passes.update(pass.id, { active: true });
    });
  }

  /**
   * `DELETE S/{id}`: permanent; announced with `deleted: true`; its agent tokens are refused
   * everywhere before the answer. @throws 404; 403; 503 deny-list store down
   */
  async delete(where: Where, passId: string): Promise<void> {
    await this.txHost.withTransaction(async () => {
      await this.manageable(where);
      const pass = await this.passes.find(where.projectId, passId, { lock: true });
      if (!pass) throw new SentinelPassNotFoundError();
      await this.events.deleteAndAnnounce(pass);
      await this.projects.recountTools(where.projectId);
      await this.note(where, 'sentinel_pass.deleted', pass);
    });
  }

  /** One managing command on one row-locked pass: change, touch the project, announce. */
  private command(
    where: Where,
    passId: string,
    action: AuditAction,
    change: (pass: SentinelPass) => Promise<SentinelPass>,
  ): Promise<SentinelPass> {
    return this.txHost.withTransaction(async () => {
      await this.manageable(where);
      const current = await this.passes.find(where.projectId, passId, { lock: true });
      if (!current) throw new SentinelPassNotFoundError();
      const pass = await change(current);
      await this.projects.touch(where.projectId);
      await this.note(where, action, pass);
      // Last, so that only the commit can fail after it deny-lists the pass's agent tokens.
      return this.events.changed(pass, current);
    });
  }

  /** Records a pass command in the audit log (same transaction): the pass by id and title. */
  private note(where: Where, action: AuditAction, pass: SentinelPass): Promise<void> {
    return this.audit.record(
      where.principal,
      credentialAudit(action, where, { type: 'sentinel_pass', id: pass.id, label: pass.title }),
    );
  }

  private manageable(where: Where): Promise<ProjectAccess> {
    return this.access.projectWith(
      where.principal,
      where.organizationId,
      where.projectId,
      'sentinelPass.manage',
      { lock: true },
    );
  }

  private readable(where: Where): Promise<ProjectAccess> {
    return this.access.projectWith(
      where.principal,
      where.organizationId,
      where.projectId,
      'sentinelPass.read',
    );
  }
}

/** Order-preserving de-duplication; absent → []. */
function unique(values: string[] | undefined): string[] {
  return [...new Set(values ?? [])];
}

/**
 * `expiresAt`: undefined stays undefined (not sent), null means never; a date must be in the
 * future. @throws ValidationFailedError 400 at `/sentinelPass/expiresAt`
 */
function futureOrNull(value: string | null | undefined): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const date = parseIsoInstant(value); // the DTO's @IsIsoInstant refused other forms
  if (date === null) {
    throw ValidationFailedError.at(
      { pointer: '/sentinelPass/expiresAt' },
      'must be an ISO 8601 date-time such as 2027-01-31T12:00:00Z',
    );
  }
  if (date.getTime() <= Date.now()) {
    throw ValidationFailedError.at({ pointer: '/sentinelPass/expiresAt' }, 'must be in the future');
  }
  return date;
}
