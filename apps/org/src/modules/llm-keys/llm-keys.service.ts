import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AesGcmEnvelope, type Principal } from '@wp/security';
import { credentialAudit } from '../audit/audit-events.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { ProjectCredentialCommands } from '../project-credentials/project-credential-commands.js';
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
 * service's `AesGcmEnvelope`, only ever returned masked. Permissions as for API keys
 * (`ProjectCredentialCommands`); unlike them, a change publishes no event (no other service
 * reads these keys), it only marks the project's activity (`last_activity_at`).
 */
@Injectable()
export class LlmKeysService {
  constructor(
    private readonly commands: ProjectCredentialCommands,
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
    return this.commands.change(principal, organizationId, projectId, async (_project) => {
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
      );
      await this.projects.touch(projectId);
      await this.audit.record(
        principal,
        credentialAudit('llm_api_key.created', { organizationId, projectId }, llmKeyOf(key)),
      );
      return key;
    });
  }

  // jscpd:ignore-start: the delete frame is the API key's, the side effects differ (activity mark here; event, withdrawal there) and stay visible.
  async delete(
    principal: Principal,
    organizationId: number,
    projectId: number,
    keyId: string,
  ): Promise<void> {
    await this.commands.change(principal, organizationId, projectId, async (_project) => {
      const key = await this.keys.find(projectId, keyId);
      if (!key) throw new LlmApiKeyNotFoundError();
      // jscpd:ignore-end
      await this.keys.delete(keyId);
      await this.projects.touch(projectId);
      await this.audit.record(
        principal,
        credentialAudit('llm_api_key.deleted', { organizationId, projectId }, llmKeyOf(key)),
      );
    });
  }

  async listForOrganization(principal: Principal, organizationId: number): Promise<LlmApiKey[]> {
    return this.commands.listForOrganization(principal, organizationId, this.keys);
  }
}

/** An LLM key as audit target: its provider only (not even the masked key). */
function llmKeyOf(key: LlmApiKey): { type: 'llm_api_key'; id: string; label: string } {
  return { type: 'llm_api_key', id: key.id, label: key.provider };
}
