import { Injectable } from '@nestjs/common';
import { parseIsoInstant, ValidationFailedError } from '@wp/http';
import type { Principal } from '@wp/security';
import { credentialAudit } from '../audit/audit-events.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { ProjectCredentialCommands } from '../project-credentials/project-credential-commands.js';
import { ApiKeyNotFoundError } from './api-keys.errors.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import type { ProjectApiKey } from './project-api-key.entity.js';
import { ProjectKeys, type NewKeyPair } from './project-keys.js';

/**
 * Project API keys (docs/api.md § Projects: `P/{id}/api_keys`; docs/api.md § Organizations:
 * `api_keys`). Permissions as for LLM keys (`ProjectCredentialCommands`); unlike them, every
 * change publishes `org.project.keys.changed` in the same transaction, a note can change, and a
 * deleted pair is withdrawn from analytics at once.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly commands: ProjectCredentialCommands,
    private readonly keys: ApiKeysRepository,
    private readonly projectKeys: ProjectKeys,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * `POST P/{id}/api_keys`: a new pair; the secret in clear is returned once (it stays
   * retrievable with `secret=true` only if it is the project's oldest unexpired pair).
   * @throws 400 when `expires_at` is not in the future; 404; 403 `FORBIDDEN`
   */
  async create(
    principal: Principal,
    organizationId: number,
    projectId: number,
    input: { note: string; expiresAt: string | null | undefined },
  ): Promise<NewKeyPair> {
    // The DTO's @IsIsoInstant admits only forms parseIsoInstant reads (docs/decisions.md § Wire
    // format).
    const expiresAt = input.expiresAt ? parseIsoInstant(input.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw ValidationFailedError.at(
        { pointer: '/data/attributes/expires_at' },
        'must be in the future',
      );
    }
    return this.commands.change(principal, organizationId, projectId, async (project) => {
      const pair = await this.projectKeys.create(project, {
        note: input.note,
        expiresAt,
        createdBy: principal.id,
      });
      await this.projectKeys.publish(project);
      await this.audit.record(
        principal,
        credentialAudit('api_key.created', { organizationId, projectId }, keyOf(pair.key)),
      );
      return pair;
    });
  }

  /** `PATCH P/{id}/api_keys/{apiKeyId}`: changes the note. */
  async updateNote(
    principal: Principal,
    organizationId: number,
    projectId: number,
    keyId: string,
    note: string,
  ): Promise<ProjectApiKey> {
    return this.commands.change(principal, organizationId, projectId, async (project) => {
      if (!(await this.keys.find(projectId, keyId))) throw new ApiKeyNotFoundError();
      const key = await this.keys.updateNote(keyId, note);
      await this.projectKeys.publish(project);
      await this.audit.record(
        principal,
        credentialAudit('api_key.updated', { organizationId, projectId }, keyOf(key)),
      );
      return key;
    });
  }

  /**
   * `DELETE P/{id}/api_keys/{apiKeyId}`: the pair stops authenticating analytics at once.
   * @throws 404; 403; 503 when the deny-list store does not answer (nothing deleted)
   */
  async delete(
    principal: Principal,
    organizationId: number,
    projectId: number,
    keyId: string,
  ): Promise<void> {
    await this.commands.change(principal, organizationId, projectId, async (project) => {
      const key = await this.keys.find(projectId, keyId);
      if (!key) throw new ApiKeyNotFoundError();
      await this.keys.delete(keyId);
      await this.projectKeys.publish(project);
      await this.audit.record(
        principal,
        credentialAudit('api_key.deleted', { organizationId, projectId }, keyOf(key)),
      );
      // Last: analytics refuses the pair from now on, whether or not it has the event yet.
      await this.projectKeys.withdraw(projectId, [key]);
    });
  }

  /** `GET /organizations/{id}/api_keys`: every pair of every project (ADMIN or OWNER). */
  async listForOrganization(
    principal: Principal,
    organizationId: number,
  ): Promise<ProjectApiKey[]> {
    return this.commands.listForOrganization(principal, organizationId, this.keys);
  }
}

/** An API key pair as audit target: its note and public key (never the secret). */
function keyOf(key: ProjectApiKey): { type: 'api_key'; id: string; label: string } {
  return { type: 'api_key', id: key.id, label: `${key.note} (${key.publicKey})` };
}
