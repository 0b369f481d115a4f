import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@wp/http';
import { Outbox } from '@wp/messaging';
import {
  AesGcmEnvelope,
  PROJECT_KEY_WITHDRAWAL_TTL_SECONDS,
  projectKeysSessionId,
  projectKeyTokenId,
  RevocationList,
} from '@wp/security';
import { ProjectsRepository } from '../tenants/projects.repository.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ProjectApiKey } from './project-api-key.entity.js';

/** A key pair just made: the stored row and the secret in clear (shown once). */
export interface NewKeyPair {
  key: ProjectApiKey;
  secretKey: string;
}

/**
 * Project key pairs (docs/architecture.md § Project key pair): `pk_` + 32 hex characters (128
 * random bits) and `sk_` + 64 hex characters (256 bits). The secret is sealed with the
 * service's `AesGcmEnvelope` (AES-256-GCM, key version stored) and its SHA-256 kept for
 * `org.project.keys.changed`, which carries the project's full current set after every change
 * so analytics can replace what it holds.
 */
@Injectable()
export class ProjectKeys {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly projects: ProjectsRepository,
    private readonly box: AesGcmEnvelope,
    private readonly outbox: Outbox,
    private readonly revocations: RevocationList,
  ) {}

  async create(
    project: { id: number; organizationId: number },
    input: { note: string; expiresAt: Date | null; createdBy: string | null },
  ): Promise<NewKeyPair> {
    const secretKey = `sk_${randomBytes(32).toString('hex')}`;
    const encryptedSecretKey = this.box.encrypt(secretKey);
    const key = await this.keys.insert(
      Object.assign(new ProjectApiKey(), {
        id: randomUUID(),
        projectId: project.id,
        organizationId: project.organizationId,
        note: input.note,
        publicKey: `pk_${randomBytes(16).toString('hex')}`,
        encryptedSecretKey,
        secretKeyVersion: AesGcmEnvelope.versionOf(encryptedSecretKey),
        secretKeySha256: createHash('sha256').update(secretKey, 'utf8').digest('hex'),
        expiresAt: input.expiresAt,
        createdBy: input.createdBy,
      }),
    );
    return { key, secretKey };
  }

  /** The secret of a stored pair, in clear. */
  reveal(key: ProjectApiKey): string {
    return this.box.decrypt(key.encryptedSecretKey);
  }

  /**
   * Refuses pairs in analytics at once, before the command's answer (docs/architecture.md
   * § Withdrawn permissions at once): deny-lists the given deleted pairs, or with `'project'`
   * every pair of a project that is going away, recorded in the command's active transaction
   * (docs/architecture.md § Redis is a cache). Call it last in the transaction: only the commit
   * can fail after it (then the pairs are refused although kept: fail closed).
   * @throws DomainError 503 `UNAVAILABLE` when the deny-list store does not answer (the command
   *   fails, nothing is committed)
   */
  async withdraw(projectId: number, pairs: { publicKey: string }[] | 'project'): Promise<void> {
    const until = Math.floor(Date.now() / 1000) + PROJECT_KEY_WITHDRAWAL_TTL_SECONDS;
    try {
      if (pairs === 'project') {
        await this.revocations.revokeSession(
          projectKeysSessionId(projectId),
          PROJECT_KEY_WITHDRAWAL_TTL_SECONDS,
        );
        return;
      }
      for (const pair of pairs) {
        await this.revocations.revokeToken(projectKeyTokenId(pair.publicKey), until);
      }
    } catch (error) {
      throw new DomainError('unavailable', 'UNAVAILABLE', 'Service unavailable', {
        detail: `The project's key pairs could not be refused (${(error as Error).message}); nothing changed. Retry shortly.`,
        retryAfter: 1,
      });
    }
  }

  /**
   * Publishes `org.project.keys.changed` with the project's current pairs (none when the
   * project is going away), at the next keys version of the project.
   */
  async publish(
    project: { id: number; organizationId: number },
    options: { deleted?: boolean } = {},
  ): Promise<void> {
    const version = await this.projects.bumpKeysVersion(project.id);
    const keys = options.deleted ? [] : await this.keys.listForProject(project.id);
    await this.outbox.enqueue('org.project.keys.changed', {
      organizationId: project.organizationId,
      projectId: project.id,
      version,
      keys: keys.map((k) => ({
        id: k.id,
        publicKey: k.publicKey,
        secretKeySha256: k.secretKeySha256,
        expiresAt: k.expiresAt ? k.expiresAt.toISOString() : null,
      })),
    });
  }
}
