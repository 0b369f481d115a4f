import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  Inject,
  Injectable,
  Optional,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { storeUnavailable } from '@wp/http';
import { TxHost } from '@wp/persistence';
import { recordRevocation } from './revocation-journal.js';
import { SECURITY_OPTIONS, type SecurityOptions } from './security.options.js';
import {
  CacheNotRebuiltError,
  CacheRebuilder,
  REBUILD_REQUEST,
  type CacheWriter,
} from './stores/cache-rebuilder.js';
import { RevocationStore, type RevocationKind } from './stores/revocation.store.js';

/**
 * The longest a revoked token may still be accepted (docs/architecture.md § Identity and access:
 * within 1 s).
 */
export const DEFAULT_REVOCATION_CACHE_MS = 1000;
/** How often each process sends itself a heartbeat through the channel. */
const HEARTBEAT_MS = 200;
const MAX_CACHED = 50_000;
/**
 * How long a revocation waits, before its command goes on to commit and answer, for its own
 * announcement to come back through the channel (the other processes receive it in the same
 * delivery). Not waiting left a window in which a process still answered from a remembered
 * "not revoked" while the announcement was on its way; past this wait the 1 s bound holds.
 */
const ANNOUNCEMENT_ECHO_WAIT_MS = 250;

/**
 * The access token deny-list (docs/architecture.md § Identity and access ("Revocation")): a revoked
 * token id (`jti`) or session (`sid`, a refresh token family) is kept in the {@link
 * RevocationStore} (Redis, or the platform database in embedded mode) until the token would have
 * expired anyway. Every service checks it on every authenticated request, so a logout takes effect
 * everywhere. The writer also records each entry in its own database, in the command's
 * transaction (`recordRevocation`): Redis is a cache of those records, rebuilt when lost, and a
 * check that Redis cannot vouch for fails closed (docs/architecture.md § Redis is a cache).
 *
 * "Not revoked" answers are remembered per token, because every revocation is also announced
 * on the store's announcement channel and each process forgets the answers it concerns (or all,
 * for a session) as it arrives: in practice a revoked token is refused at once everywhere. The
 * bound when announcements stop arriving (a dead connection): each process publishes a
 * heartbeat to itself every 200 ms; the store delivers a channel's messages in the order they
 * were sent (Redis pub/sub; PostgreSQL `NOTIFY` in commit order), so once its own heartbeat
 * sent at `t` is back, every revocation made before `t` has been seen. Remembered answers are used only while such a `t` is less than
 * `revocationCacheMs` (default 1000 ms) old — a revoked token is refused within that bound
 * whatever happens to the subscription — and when heartbeats come back after such a gap,
 * everything remembered is forgotten (announcements may have been lost in it). Answers are
 * remembered only while heartbeats arrive, never across an announcement, and kept until the
 * token expires or the cache is full.
 */
@Injectable()
export class RevocationList implements OnModuleInit, OnApplicationShutdown {
  private readonly cacheMs: number;
  /** `jti` → its `sid` and expiry (epoch s), for tokens the store said were not revoked. */
  private readonly notRevoked = new Map<string, { sid: string; expiresAt: number }>();
  private readonly bySession = new Map<string, Set<string>>();
  private unsubscribe?: () => Promise<void>;
  private stopped = false;
  private heartbeat?: PeriodicJob;
  private readonly self = randomBytes(8).toString('hex');
  /** `performance.now()` at which the last own heartbeat that came back was sent. */
  private freshAsOf = -Infinity;
  /** Bumped on every announcement: answers read across one are not remembered. */
  private generation = 0;
  /** Own revocations waiting for their announcement to come back, by announcement. */
  private readonly echoes = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: RevocationStore,
    @Optional() @Inject(SECURITY_OPTIONS) options?: Pick<SecurityOptions, 'revocationCacheMs'>,
    @Optional() private readonly rebuilder?: CacheRebuilder,
    @Optional() private readonly txHost?: TxHost,
  ) {
    this.cacheMs = options?.revocationCacheMs ?? DEFAULT_REVOCATION_CACHE_MS;
  }

  /** Subscribes to announcements and starts the heartbeat (nothing when caching is off). */
  async onModuleInit(): Promise<void> {
    if (this.cacheMs <= 0) return;
    const unsubscribe = await this.store
      .subscribe((message) => this.onMessage(message))
      .catch(() => undefined); // the store reconnects by itself; until then nothing is remembered
    if (this.stopped) await unsubscribe?.();
    else this.unsubscribe = unsubscribe;
    // A lost heartbeat only lets the cache lapse (by design); nothing to log 5 times a second.
    this.heartbeat = periodicJobs.every('security.revocation-heartbeat', HEARTBEAT_MS, () =>
      this.store.announce(`hb:${this.self}:${performance.now()}`).catch(() => undefined),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.heartbeat?.stop();
    this.freshAsOf = -Infinity;
    await this.unsubscribe?.().catch(() => undefined);
  }

  /**
   * Revokes one access token until `expiresAt` (epoch seconds): recorded in the transaction
   * active in the async context (`TxHost`), then deny-listed and announced (call it before the
   * commit).
   * @throws DomainError 503 `UNAVAILABLE` when the store does not answer (roll back)
   * @throws Error when no transaction is active (a programming error)
   */
  async revokeToken(jti: string, expiresAt: number): Promise<void> {
    await this.denyAndAnnounce('jti', jti, ttl(expiresAt));
  }

  /**
   * Revokes every access token of a session for `ttlSeconds` (the access token lifetime), as
   * {@link revokeToken}.
   */
  async revokeSession(sid: string, ttlSeconds: number): Promise<void> {
    await this.denyAndAnnounce('sid', sid, Math.max(1, Math.ceil(ttlSeconds)));
  }

  /**
   * Whether the token or its session is deny-listed: from the store, or a remembered "no" while
   * announcements are known to arrive (see the class).
   * @param expiresAt the token's `exp` (epoch s): how long a "no" may be remembered at most
   * @param writers who could have deny-listed it (`DENY_LIST_WRITERS`): the store must vouch for
   *   their parts
   * @throws DomainError 503 `UNAVAILABLE` (`Retry-After`) when the store does not answer or cannot
   *   vouch for a "no" (emptied, not rebuilt yet: the writers are asked to rebuild)
   */
  async isRevoked(
    jti: string,
    sid: string,
    expiresAt: number,
    writers: readonly CacheWriter[],
  ): Promise<boolean> {
    const fresh = this.fresh();
    const known = fresh ? this.notRevoked.get(jti) : undefined;
    if (known && known.sid === sid && known.expiresAt > Date.now() / 1000) return false;
    const generation = this.generation;
    let revoked: boolean;
    try {
      revoked = await this.store.isDenied(jti, sid, writers);
    } catch (error) {
      if (error instanceof CacheNotRebuiltError) this.rebuilder?.request(error.writers);
      throw storeUnavailable('The credential could not be checked against the deny-list');
    }
    // Only while announcements are known to arrive (else one could be missed before a reconnect).
    if (!revoked && fresh && this.fresh() && generation === this.generation) {
      this.remember(jti, sid, expiresAt);
    }
    return revoked;
  }

  /**
   * The host of the command revoking (docs/decisions.md § Transactions in the request context).
   * @throws Error without one: only a writer (an app with a database) may revoke
   */
  private host(): TxHost {
    if (!this.txHost) throw new Error('RevocationList without TxHost: only a writer may revoke');
    return this.txHost;
  }

  /** Whether an own heartbeat sent less than `cacheMs` ago has come back. */
  private fresh(): boolean {
    return performance.now() - this.freshAsOf < this.cacheMs;
  }

  /**
   * Records the entry in the writer's database (the durable truth), then deny-lists and announces
   * in one step of the store (both or neither: a deny-list entry other processes are not told
   * about could be missed for as long as their heartbeats flow); this process forgets at once.
   */
  private async denyAndAnnounce(kind: RevocationKind, id: string, ttlSeconds: number) {
    const what = `${kind}:${id}`;
    await recordRevocation(this.host(), kind, id, Math.floor(Date.now() / 1000) + ttlSeconds);
    this.onMessage(what);
    const echo = this.unsubscribe ? this.echoOf(what) : undefined;
    try {
      await this.store.deny(kind, id, ttlSeconds, what);
    } catch (error) {
      echo?.cancel();
      throw Object.assign(storeUnavailable('The revocation could not be recorded'), {
        cause: error,
      });
    }
    await echo?.seen;
  }

  /**
   * Resolves when `announcement` arrives through the subscription, or after
   * {@link ANNOUNCEMENT_ECHO_WAIT_MS} (never rejects): registered before the announcement is sent.
   */
  private echoOf(announcement: string): { seen: Promise<void>; cancel: () => void } {
    let waiters = this.echoes.get(announcement);
    if (!waiters) this.echoes.set(announcement, (waiters = new Set()));
    let done!: () => void;
    const seen = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ANNOUNCEMENT_ECHO_WAIT_MS);
      done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.echoes.get(announcement) === waiters) {
          this.echoes.delete(announcement);
        }
        resolve();
      };
      waiters.add(done);
    });
    return { seen, cancel: done };
  }

  private onMessage(message: string): void {
    if (message.startsWith('hb:')) {
      const [, from, sentAt] = message.split(':');
      if (from !== this.self) return;
      // Back after a gap (reconnect): announcements may have been lost in it, forget everything.
      if (!this.fresh()) {
        this.generation++;
        this.clear();
      }
      this.freshAsOf = Math.max(this.freshAsOf, Number(sentAt));
      return;
    }
    if (message.startsWith(REBUILD_REQUEST)) return; // for the writers (CacheRebuilder)
    for (const done of this.echoes.get(message) ?? []) done();
    this.generation++;
    const id = message.slice(4);
    if (message.startsWith('jti:')) this.forget(id);
    else if (message.startsWith('sid:'))
      for (const jti of this.bySession.get(id) ?? []) this.forget(jti);
    else this.clear(); // unknown announcement: be safe
  }

  private remember(jti: string, sid: string, expiresAt: number): void {
    const now = Date.now() / 1000;
    if (expiresAt <= now) return;
    // Entries sit in the order tokens were first asked about, nearly their expiry order: drop
    // the expired ones from the front, so the map holds about one token lifetime's worth
    // instead of filling up to MAX_CACHED (docs/operations.md § Memory over time).
    for (const [known, entry] of this.notRevoked) {
      if (entry.expiresAt > now) break;
      this.forget(known);
    }
    if (this.notRevoked.size >= MAX_CACHED) this.clear();
    this.notRevoked.set(jti, { sid, expiresAt });
    let jtis = this.bySession.get(sid);
    if (!jtis) this.bySession.set(sid, (jtis = new Set()));
    jtis.add(jti);
  }

  private forget(jti: string): void {
    const known = this.notRevoked.get(jti);
    if (!known) return;
    this.notRevoked.delete(jti);
    const jtis = this.bySession.get(known.sid);
    jtis?.delete(jti);
    if (jtis?.size === 0) this.bySession.delete(known.sid);
  }

  private clear(): void {
    this.notRevoked.clear();
    this.bySession.clear();
  }
}

function ttl(expiresAt: number): number {
  return Math.max(1, Math.ceil(expiresAt - Date.now() / 1000));
}
