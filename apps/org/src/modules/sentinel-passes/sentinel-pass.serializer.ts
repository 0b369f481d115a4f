import { resource, type Resource } from '@wp/http';
import type { SentinelPass } from './sentinel-pass.entity.js';

/** Resource type of a Sentinel Pass in the unified asset format. */
export const SENTINEL_PASS_TYPE = 'studio_tool';

export type SentinelPassAttributes = {
  title: string;
  description: string;
  /** Always `security`. */
  assetType: 'security';
  /** False after `revoke` (until `activate`). */
  active: boolean;
  /** `expiresAt` has passed: auth refuses the key whatever `active` says. */
  expired: boolean;
  tags: string[];
  entityType: string;
  entityId: string;
  organizationId: string;
  projectId: string;
  metadata: {
    permissions: string[];
    allowedReferers: string[];
    credentialType: string;
    scopes: string[];
    expiresAt: string | null;
    lastRotated: string | null;
    usageCount: number;
    lastUsedAt: string | null;
  };
  createdAt: string;
  updatedAt: string;
};

/**
 * A pass in the unified asset format (docs/api.md § Sentinel Pass (unified asset format)):
 * `type` `studio_tool`, `attributes.assetType` `security`, `attributes.metadata.*`. Never the
 * key or its hash; the key appears once, at `meta.secret` of the create/rotate responses.
 */
export function toSentinelPassResource(
  pass: SentinelPass,
  now = new Date(),
): Resource<SentinelPassAttributes> {
  return resource(SENTINEL_PASS_TYPE, pass.id, {
    title: pass.title,
    description: pass.description,
    assetType: 'security',
    active: pass.active,
    expired: pass.expiresAt !== null && pass.expiresAt <= now,
    tags: pass.tags,
    entityType: pass.entityType,
    entityId: String(pass.projectId),
    organizationId: String(pass.organizationId),
    projectId: String(pass.projectId),
    metadata: {
      permissions: pass.permissions,
      allowedReferers: pass.allowedReferers,
      credentialType: pass.credentialType,
      scopes: pass.scopes,
      expiresAt: pass.expiresAt ? pass.expiresAt.toISOString() : null,
      lastRotated: pass.lastRotated ? pass.lastRotated.toISOString() : null,
      usageCount: pass.usageCount,
      lastUsedAt: pass.lastUsedAt ? pass.lastUsedAt.toISOString() : null,
    },
    createdAt: pass.createdAt.toISOString(),
    updatedAt: pass.updatedAt.toISOString(),
  });
}
