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
import { ProjectsRepository, type KeySnapshot } from './projects.repository.js';

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
  private timer?: NodeJS.Timeout;
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
    this.timer = setInterval(() => this.refreshSoon(), this.config.ANALYTICS_KEY_REFRESH_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): Promise<void> | undefined {
    clearInterval(this.timer);
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

  private apply(snapshot: KeySnapshot, full: boolean): void {
    if (full) {
      this.byPublicKey.clear();
      this.byProject.clear();
    }
    for (const projectId of snapshot.projectIds) {
      for (const publicKey of this.byProject.get(projectId) ?? []) {
        this.byPublicKey.delete(publicKey);
      }
      this.byProject.delete(projectId);
    }
    for (const key of snapshot.keys) {
      this.byPublicKey.set(key.publicKey, {
        projectId: key.projectId,
        secretHash: Buffer.from(key.secretKeySha256, 'hex'),
        expiresAt: key.expiresAt ? new Date(key.expiresAt).getTime() : null,
      });
      let set = this.byProject.get(key.projectId);
      if (!set) this.byProject.set(key.projectId, (set = new Set()));
      set.add(key.publicKey);
    }
    this.watermark = snapshot.readAt;
  }
}
