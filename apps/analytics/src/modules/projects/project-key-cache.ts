import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';
import { ANALYTICS_CONFIG, type AnalyticsConfig } from '../../config/analytics.config.js';
import { ProjectsRepository, type KeySnapshot, type StoredKey } from './projects.repository.js';

/** Marks a transaction that changed key pairs: the cache re-reads right after it commits. */
export const KEYS_CHANGED_FLAG = 'analyticsKeysChanged';

/** Changes committed shortly before the previous read may carry an older `updated_at`. */
const OVERLAP_MS = 5000;

interface CachedKey {
  projectId: number;
  secretHash: Buffer;
  /** epoch ms; null: never expires */
  expiresAt: number | null;
}

/**
 * The analytics auth cache (docs/api.md § Authentication 7, docs/analytics.md § Authentication):
 * every live project key pair in memory, so checking a request costs no database round trip.
 * Filled at boot, updated right after this replica consumed a key event, and re-read
 * incrementally every `ANALYTICS_KEY_REFRESH_MS` for changes other replicas consumed.
 * Secrets are compared in constant time as SHA-256 digests.
 */
@Injectable()
export class ProjectKeyCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ProjectKeyCache');
  private readonly byPublicKey = new Map<string, CachedKey>();
  private readonly byProject = new Map<number, Set<string>>();
  private readonly dummyHash = createHash('sha256').update('dummy').digest();
  private watermark: Date | null = null;
  private job?: PeriodicJob;
  private refreshing?: Promise<void>;
  private again = false;

  constructor(
    private readonly repository: ProjectsRepository,
    private readonly dataSource: DataSource,
    @Inject(ANALYTICS_CONFIG) private readonly config: AnalyticsConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: (event: TransactionCommitEvent) => {
        if (event.queryRunner.data?.[KEYS_CHANGED_FLAG] === true) this.refreshSoon();
      },
    };
    this.dataSource.subscribers.push(subscriber);
    this.apply(await this.repository.loadAll(), true);
    this.job = periodicJobs.every(
      'analytics.project-keys-refresh',
      this.config.ANALYTICS_KEY_REFRESH_MS,
      () => this.refreshSoon(),
    );
  }

  onApplicationShutdown(): Promise<void> | undefined {
    void this.job?.stop();
    return this.refreshing;
  }

  /**
   * The project of a key pair, or null when the pair is unknown, wrong, expired or its project
   * deleted. Runs in constant time with respect to the secret.
   */
  verify(publicKey: string, secretKey: string, now = Date.now()): number | null {
    const candidate = createHash('sha256').update(secretKey, 'utf8').digest();
    const entry = this.byPublicKey.get(publicKey);
    const matches = timingSafeEqual(entry?.secretHash ?? this.dummyHash, candidate);
    if (!entry || !matches) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= now) return null;
    return entry.projectId;
  }

  /** Number of cached key pairs (health, tests). */
  get size(): number {
    return this.byPublicKey.size;
  }

  /** Re-reads changes now (coalesced); resolves when the cache reflects them. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.readChanges()
      .catch((error: unknown) => {
        this.logger.warn(`key refresh failed: ${(error as Error).message}`);
      })
      .finally(() => {
        this.refreshing = undefined;
        if (this.again) {
          this.again = false;
          this.refreshSoon();
        }
      });
    return this.refreshing;
  }

  private refreshSoon(): void {
    void this.refresh();
  }

  private async readChanges(): Promise<void> {
    const since = new Date((this.watermark?.getTime() ?? 0) - OVERLAP_MS);
    this.apply(await this.repository.changedSince(since), false);
  }

  /**
   * Brings the cache to `snapshot`: the listed projects get exactly their keys in it (a full
   * snapshot also drops every other project). A pair that did not change keeps its entry: the
   * refresh re-reads a project for a few seconds after each change (`OVERLAP_MS`), and
   * re-creating entries each time only made garbage (docs/operations.md § Memory over time).
   */
  private apply(snapshot: KeySnapshot, full: boolean): void {
    const keysOf = new Map<number, StoredKey[]>();
    for (const key of snapshot.keys) {
      const list = keysOf.get(key.projectId);
      if (list) list.push(key);
      else keysOf.set(key.projectId, [key]);
    }
    const projects = full
      ? new Set([...this.byProject.keys(), ...snapshot.projectIds])
      : snapshot.projectIds;
    for (const projectId of projects) this.replaceProject(projectId, keysOf.get(projectId) ?? []);
    this.watermark = snapshot.readAt;
  }

  private replaceProject(projectId: number, keys: StoredKey[]): void {
    const previous = this.byProject.get(projectId);
    const current = new Set<string>();
    for (const key of keys) {
      current.add(key.publicKey);
      const expiresAt = key.expiresAt ? new Date(key.expiresAt).getTime() : null;
      const cached = this.byPublicKey.get(key.publicKey);
      if (
        cached?.projectId === projectId &&
        cached.expiresAt === expiresAt &&
        cached.secretHash.toString('hex') === key.secretKeySha256
      ) {
        continue;
      }
      this.byPublicKey.set(key.publicKey, {
        projectId,
        secretHash: digestFromHex(key.secretKeySha256),
        expiresAt,
      });
    }
    for (const publicKey of previous ?? []) {
      if (!current.has(publicKey) && this.byPublicKey.get(publicKey)?.projectId === projectId) {
        this.byPublicKey.delete(publicKey);
      }
    }
    if (current.size > 0) this.byProject.set(projectId, current);
    else this.byProject.delete(projectId);
  }
}

/**
 * A SHA-256 digest from its hex form, in a buffer of its own. Not `Buffer.from(hex, 'hex')`:
 * small buffers made that way are slices of a shared 8 KiB pool, and one long-lived 32-byte
 * digest keeps its whole 8 KiB slab alive — about 8 KiB per cached key pair instead of 32 bytes.
 */
export function digestFromHex(hex: string): Buffer {
  const digest = Buffer.alloc(hex.length / 2);
  digest.write(hex, 'hex');
  return digest;
}
