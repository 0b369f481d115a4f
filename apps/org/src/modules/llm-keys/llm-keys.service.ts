import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AesGcmEnvelope, type Principal } from '@wp/security';
import { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service.js';
import { credentialAudit } from '../audit/audit-events.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { ProjectsRepository } from '../tenants/projects.repository.js';
import { LlmApiKey } from './llm-api-key.entity.js';
import { LlmApiKeyNotFoundError } from './llm-keys.errors.js';
import { maskSecret, type LlmProvider } from './llm-providers.js';
import { LlmKeysRepository } from './llm-keys.repository.js';

export interface NewLlmApiKey {
  provider: LlmProvider;
  secretKey: string;
  customModels?: string[];
  withDefaultModels?: boolean;
}

/**
 * LLM provider keys of a project (docs/api.md § Projects `llm_api_keys`;
 * docs/architecture.md § Decisions where the contract is silent "LLM API keys"): sealed with the
 * service's `AesGcmEnvelope`, only ever returned masked. Changes need `project.manageKeys`; listing
 * across the organization needs `organization.viewKeys`.
 */
@Injectable()
export class LlmKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly keys: LlmKeysRepository,
    private readonly projects: ProjectsRepository,
    private readonly box: AesGcmEnvelope,
    private readonly audit: AuditTrail,
  ) {}

  async create(
    principal: Principal,
    organizationId: number,
    projectId: number,
    input: NewLlmApiKey,
  ): Promise<LlmApiKey> {
    return this.dataSource.transaction(async (manager) => {
      await this.access.projectWith(principal, organizationId, projectId, 'project.manageKeys', {
        manager,
        lock: true,
      });
      const encryptedSecretKey = this.box.encrypt(input.secretKey);
      const key = await this.keys.insert(
        Object.assign(new LlmApiKey(), {
          id: randomUUID(),
          projectId,
          organizationId,
          provider: input.provider,
          encryptedSecretKey,
          secretKeyVersion: AesGcmEnvelope.versionOf(encryptedSecretKey),
          maskedSecretKey: maskSecret(input.secretKey),
          customModels: input.customModels ?? [],
          withDefaultModels: input.withDefaultModels ?? true,
          createdBy: principal.id,
        }),
        manager,
      );
      await this.projects.touch(projectId, manager);
      await this.audit.record(
        manager,
        principal,
        credentialAudit('llm_api_key.created', { organizationId, projectId }, llmKeyOf(key)),
      );
      return key;
    });
  }

  async delete(
    principal: Principal,
    organizationId: number,
    projectId: number,
    keyId: string,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.access.projectWith(principal, organizationId, projectId, 'project.manageKeys', {
        manager,
        lock: true,
      });
      const key = await this.keys.find(projectId, keyId, manager);
      if (!key) throw new LlmApiKeyNotFoundError();
      await this.keys.delete(keyId, manager);
      await this.projects.touch(projectId, manager);
      await this.audit.record(
        manager,
        principal,
        credentialAudit('llm_api_key.deleted', { organizationId, projectId }, llmKeyOf(key)),
      );
    });
  }

  async listForOrganization(principal: Principal, organizationId: number): Promise<LlmApiKey[]> {
    await this.access.organizationWith(principal, organizationId, 'organization.viewKeys');
    return this.keys.listForOrganization(organizationId);
  }
}

/** An LLM key as audit target: its provider only (not even the masked key). */
function llmKeyOf(key: LlmApiKey): { type: 'llm_api_key'; id: string; label: string } {
  return { type: 'llm_api_key', id: key.id, label: key.provider };
}
