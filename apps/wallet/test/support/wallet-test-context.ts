import { MetricsServer } from '@wp/observability';
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import type { EventPayload, EventSubject, Role } from '@wp/contracts';
import { ApiKeyRegistry, hashApiKey } from '@wp/security';
import { durableConsumerCount, publishEvent } from '@wp/event-testing';
import { signAccessToken, TestEnvironment, waitFor } from '@wp/testing';
import { Pool } from 'pg';
import { walletConfigSchema } from '../../src/config/wallet.config.js';
import { walletDataSource } from '../../src/database/data-source.js';
import { auditLedger, type LedgerAuditReport } from '../../src/modules/ledger/ledger-audit.js';
import { createWalletApp } from '../../src/wallet.app.js';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  /** Address of the personal wallet. */
  wallet: string;
}

export interface TestOrganization {
  id: number;
  /** Address of the `operating` wallet. */
  wallet: string;
}

export interface HttpAnswer {
  status: number;
  body: any;
  headers: Headers;
}

let nextId = 1000 + Math.floor(Math.random() * 1000);

/**
 * The wallet service alone on real servers, in a fresh database and its own NATS namespace and
 * Redis prefix (`TestEnvironment`; in embedded mode its own platform database instead). Other
 * services are played by events published through the real transport (as org and auth publish
 * them) and by access tokens signed with the environment's key: the read models are only ever
 * fed through the consumers under test.
 *
 * Assertions may read the database (`sql`), never write it.
 */
export class WalletTestContext {
  readonly env: TestEnvironment;
  app!: NestFastifyApplication;
  baseUrl = '';
  /** The service's metrics listener (docs/operations.md § Metrics), once started. */
  metricsUrl = '';
  private pool!: Pool;
  private readonly versions = new Map<string, number>();
  private readonly consumers = new Map<string, number>();
  private appRunning = false;

  private constructor(overrides: Record<string, string>) {
    this.env = new TestEnvironment(overrides);
  }

  static async start(overrides: Record<string, string> = {}): Promise<WalletTestContext> {
    const ctx = new WalletTestContext(overrides);
    try {
      await ctx.env.prepareDatabase('wallet', walletDataSource);
      await ctx.env.vouchFor(['auth', 'org']); // played by the tests: events, tokens, Api-Key
      ctx.pool = new Pool({ connectionString: ctx.env.databaseUrl('wallet'), max: 2 });
      await ctx.startApp();
      return ctx;
    } catch (error) {
      await ctx.close();
      throw error;
    }
  }

  get apiKey(): string {
    return this.env.keys.apiKey;
  }

  get adminAccessToken(): string {
    return this.env.keys.adminAccessToken;
  }

  /** Starts (or restarts) the wallet service on the same database. */
  async startApp(): Promise<void> {
    const config = loadConfig(walletConfigSchema, this.env.env);
    this.app = await createWalletApp(config);
    await this.app.listen({ port: 0, host: '127.0.0.1' });
    this.baseUrl = `http://127.0.0.1:${(this.app.getHttpServer().address() as { port: number }).port}`;
    this.metricsUrl = this.app.get(MetricsServer).url;
    this.appRunning = true;
    await this.app.get(ApiKeyRegistry).add(hashApiKey(this.apiKey), 'test-app');
  }

  async stopApp(): Promise<void> {
    await this.app?.close();
    this.appRunning = false;
  }

  /** Sends requests to another instance of the service (e.g. a separate process). */
  useBaseUrl(url: string): void {
    this.baseUrl = url;
  }

  /**
   * An access token as auth issues it (ES256, the environment's key); `agent` adds the claims of
   * a Sentinel Pass agent token (`typ` agent, `org`, `prj`, `scp`, `prm`).
   */
  token(
    subject: string,
    options: {
      email?: string | null;
      type?: 'user' | 'agent';
      expiresIn?: number;
      agent?: { organizationId: number; projectId: number; permissions: string[] };
    } = {},
  ): Promise<string> {
    return signAccessToken(
      this.env.keys.jwtPrivateKey,
      subject,
      {
        typ: options.agent ? 'agent' : (options.type ?? 'user'),
        app: 'test-app',
        email: options.email ?? null,
        ...(options.agent
          ? {
              org: options.agent.organizationId,
              prj: options.agent.projectId,
              scp: [],
              prm: options.agent.permissions,
            }
          : {}),
      },
      options.expiresIn ?? 900,
    );
  }

  /** An HTTP request to the wallet service with the Api-Key (and a bearer token if given). */
  async request(
    method: string,
    path: string,
    options: {
      body?: unknown;
      token?: string;
      headers?: Record<string, string>;
      raw?: string;
    } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'api-key': this.apiKey, ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    const body =
      options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${this.baseUrl}/v1/api${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /**
   * Publishes an event through the service's event transport (the namespaced JetStream subject,
   * or pg-boss in embedded mode), exactly as a producing service's outbox relay does, and waits
   * until every wallet consumer of the subject has processed it.
   * `occurredAt` (ISO 8601) defaults to now; an earlier one plays a late (redelivered) event.
   */
  async publish<S extends EventSubject>(
    subject: S,
    payload: EventPayload<S>,
    occurredAt = new Date().toISOString(),
  ): Promise<string> {
    const { id } = await publishEvent(this.app, subject, payload, { occurredAt });
    const expected = await this.consumerCount(subject);
    await waitFor(
      async () => {
        const { rows } = await this.pool.query(
          'SELECT count(*)::int AS n FROM processed_event WHERE event_id = $1',
          [id],
        );
        return (rows[0] as { n: number }).n >= expected;
      },
      { timeoutMs: 10_000, what: `${subject} processed by ${expected} consumer(s)` },
    );
    return id;
  }

  /** A user as auth announces one (registered + activated); their personal wallet opens. */
  async newUser(options: { email?: string | null; phone?: string | null } = {}): Promise<TestUser> {
    const id = randomUUID();
    const email = options.email === undefined ? `${id.slice(0, 8)}@example.com` : options.email;
    const snapshot = {
      userId: id,
      email,
      phone: options.phone ?? null,
      firstName: 'Test',
      lastName: 'User',
      status: 'active' as const,
    };
    await this.publish('auth.user.registered', { ...snapshot, status: 'pending_activation' });
    await this.publish('auth.user.activated', snapshot);
    const token = await this.token(id, { email });
    const wallets = await this.request('GET', '/wallets?entity_type=user', { token });
    const wallet = (wallets.body.data as { address_hash: string }[])[0]?.address_hash;
    if (!wallet) throw new Error(`no personal wallet for ${id}: ${JSON.stringify(wallets.body)}`);
    return { id, email: email ?? '', token, wallet };
  }

  /** An organization with `owner` as OWNER, as org announces it; its operating wallet opens. */
  async newOrganization(owner: TestUser, name = 'Acme'): Promise<TestOrganization> {
    const id = nextId++;
    await this.publish('org.organization.created', {
      organizationId: id,
      name,
      createdBy: owner.id,
      createdAt: new Date().toISOString(),
    });
    await this.setOrganizationRole(id, owner, 'OWNER');
    const wallets = await this.request('GET', '/wallets?entity_type=organization', {
      token: owner.token,
    });
    const wallet = (wallets.body.data as { entity_id: string; address_hash: string }[]).find(
      (w) => w.entity_id === String(id),
    )?.address_hash;
    if (!wallet) throw new Error(`no wallet for organization ${id}`);
    return { id, wallet };
  }

  /** `org.membership.changed` at organization level (role null: removed). */
  async setOrganizationRole(
    organizationId: number,
    user: TestUser,
    role: Role | null,
  ): Promise<void> {
    await this.publish('org.membership.changed', {
      organizationId,
      projectId: null,
      userId: user.id,
      role,
      accessDenied: false,
      version: this.nextVersion(`${organizationId}:-:${user.id}`),
    });
  }

  /** A project of an organization, as org announces it. */
  async newProject(organizationId: number, name = 'Project'): Promise<number> {
    const projectId = nextId++;
    await this.publish('org.project.created', {
      organizationId,
      projectId,
      name,
      isDefault: false,
      createdBy: randomUUID(),
      createdAt: new Date().toISOString(),
    });
    return projectId;
  }

  /** `org.membership.changed` at project level. */
  async setProjectRole(
    organizationId: number,
    projectId: number,
    user: TestUser,
    role: Role | null,
    accessDenied = false,
  ): Promise<void> {
    await this.publish('org.membership.changed', {
      organizationId,
      projectId,
      userId: user.id,
      role,
      accessDenied,
      version: this.nextVersion(`${organizationId}:${projectId}:${user.id}`),
    });
  }

  /** Credits a wallet through the API with `Admin-Access` (as an operator would). */
  async credit(address: string, amount: number, asset?: string): Promise<void> {
    const operator = await this.token(randomUUID());
    const res = await this.request('POST', `/wallets/${address}/credits`, {
      token: operator,
      headers: { 'admin-access': this.adminAccessToken },
      body: { credit: { amount, description: 'test funding', ...(asset ? { asset } : {}) } },
    });
    if (res.status !== 201)
      throw new Error(`credit failed: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** GET /wallets/{address} as `user`: the wallet record. */
  async walletOf(user: { token: string }, address: string): Promise<any> {
    const res = await this.request('GET', `/wallets/${address}`, { token: user.token });
    if (res.status !== 200) throw new Error(`wallet ${address}: ${res.status}`);
    return res.body.wallet;
  }

  /** Read-only SQL against the wallet database (assertions only). */
  async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    const { rows } = await this.pool.query(text, params);
    return rows as T[];
  }

  /** Payloads of the events the wallet service enqueued on `subject`, oldest first. */
  async enqueued<S extends EventSubject>(subject: S): Promise<EventPayload<S>[]> {
    const rows = await this.sql<{ payload: EventPayload<S> }>(
      'SELECT payload FROM outbox_message WHERE subject = $1 ORDER BY seq',
      [subject],
    );
    return rows.map((r) => r.payload);
  }

  /** The ledger invariants (docs/wallet.md § Ledger), checked in one snapshot. */
  async audit(): Promise<LedgerAuditReport> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const report = await auditLedger(async (text) => (await client.query(text)).rows);
      await client.query('COMMIT');
      return report;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.app
      ?.close()
      .catch((error: unknown) => console.error('wallet app close failed', error));
    await this.pool?.end().catch(() => undefined);
    await this.env.cleanup();
  }

  private nextVersion(key: string): number {
    const v = (this.versions.get(key) ?? 0) + 1;
    this.versions.set(key, v);
    return v;
  }

  /** How many durable consumers the wallet service has on a subject. */
  private async consumerCount(subject: EventSubject): Promise<number> {
    const cached = this.consumers.get(subject);
    if (cached !== undefined) return cached;
    const n = await durableConsumerCount(this.env, subject);
    this.consumers.set(subject, n);
    return n;
  }
}
