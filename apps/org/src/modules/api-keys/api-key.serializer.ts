import { resource, type Resource } from '@wp/http';
import type { ProjectApiKey } from './project-api-key.entity.js';

export type ApiKeyAttributes = {
  note: string;
  expires_at: string | null;
  publicKey: string;
  /** The sealed value as stored (`v<n>.<iv>.<tag>.<ciphertext>`), never the secret itself. */
  encryptedSecretKey: string;
  projectId: string;
  expired: boolean;
  createdAt: string;
  updatedAt: string;
};

/**
 * API key object (docs/api.md § Project API key and docs/api.md § Project `included`): `type`
 * `apiKey`, `attributes.note`, `expires_at`, `publicKey`, `encryptedSecretKey`.
 */
export function toApiKeyResource(key: ProjectApiKey, now = new Date()): Resource<ApiKeyAttributes> {
  return resource('apiKey', key.id, {
    note: key.note,
    expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
    publicKey: key.publicKey,
    encryptedSecretKey: key.encryptedSecretKey,
    projectId: String(key.projectId),
    expired: key.expiresAt !== null && key.expiresAt <= now,
    createdAt: key.createdAt.toISOString(),
    updatedAt: key.updatedAt.toISOString(),
  });
}
