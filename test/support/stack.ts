import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { MetricsServer } from '@wp/observability';
import { TestEnvironment } from '@wp/testing';
import type { DataSource } from 'typeorm';
import { createAnalyticsApp } from '../../apps/analytics/src/analytics.app.js';
import { analyticsConfigSchema } from '../../apps/analytics/src/config/analytics.config.js';
import { analyticsDataSource } from '../../apps/analytics/src/database/data-source.js';
import { createAuthApp } from '../../apps/auth/src/auth.app.js';
import { authConfigSchema } from '../../apps/auth/src/config/auth.config.js';
import { authDataSource } from '../../apps/auth/src/database/data-source.js';
import { gatewayConfigSchema } from '../../apps/gateway/src/config/gateway.config.js';
import { createGatewayApp } from '../../apps/gateway/src/gateway.app.js';
import { orgConfigSchema } from '../../apps/org/src/config/org.config.js';
import { orgDataSource } from '../../apps/org/src/database/data-source.js';
import { createOrgApp } from '../../apps/org/src/org.app.js';
import { walletConfigSchema } from '../../apps/wallet/src/config/wallet.config.js';
import { walletDataSource } from '../../apps/wallet/src/database/data-source.js';
import { createWalletApp } from '../../apps/wallet/src/wallet.app.js';

export type ServiceName = 'auth' | 'org' | 'wallet' | 'analytics';

interface ServiceSpec {
  dataSource: (url: string) => DataSource;
  create: (env: Record<string, string>) => Promise<NestFastifyApplication>;
}

const SERVICES: Record<ServiceName, ServiceSpec> = {
  auth: {
    dataSource: authDataSource,
    create: (e) => createAuthApp(loadConfig(authConfigSchema, e)),
  },
  org: { dataSource: orgDataSource, create: (e) => createOrgApp(loadConfig(orgConfigSchema, e)) },
  wallet: {
    dataSource: walletDataSource,
    create: (e) => createWalletApp(loadConfig(walletConfigSchema, e)),
  },
  analytics: {
    dataSource: analyticsDataSource,
    create: (e) => createAnalyticsApp(loadConfig(analyticsConfigSchema, e)),
  },
};

/**
 * The whole platform in one process for cross-service tests: every service on its own
 * loopback port with its own fresh database, and the gateway in front. In services mode they
 * share one NATS namespace and Redis prefix; in embedded mode (`TEST_PLATFORM_MODE=embedded`, the
 * `platform-embedded` jest project) one platform database instead, and Redis and NATS are
 * unreachable. Services can be stopped and started again (same database and port).
 */
export class PlatformStack {
  readonly apps = new Map<ServiceName | 'gateway', NestFastifyApplication>();
  readonly ports = new Map<ServiceName, number>();
  /** Further processes of a service ({@link startReplica}), closed with the stack. */
  private readonly replicas: NestFastifyApplication[] = [];
  gatewayUrl = '';

  private constructor(readonly env: TestEnvironment) {}

  /**
   * @param overrides environment variables over the test environment's
   * @param options.databaseServers a PostgreSQL server per service other than the shared one
   *   (`postgres://user:password@host:port`; fault tests' private server)
   */
  static async start(
    overrides: Record<string, string> = {},
    options: { databaseServers?: Partial<Record<ServiceName, string>> } = {},
  ): Promise<PlatformStack> {
    const stack = new PlatformStack(
      new TestEnvironment({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false', ...overrides }),
    );
    try {
      await stack.env.preparePlatform();
      for (const name of Object.keys(SERVICES) as ServiceName[]) {
        const server = options.databaseServers?.[name];
        await stack.env.prepareDatabase(name, SERVICES[name].dataSource, server);
      }
      for (const name of Object.keys(SERVICES) as ServiceName[]) await stack.startService(name);
      await stack.startGateway();
      return stack;
    } catch (error) {
      await stack.close();
      throw error;
    }
  }

  get apiKey(): string {
    return this.env.keys.apiKey;
  }

  /**
   * `http://127.0.0.1:<port>` of an app's metrics listener (`METRICS_PORT`, any free port in
   * tests; docs/operations.md § Metrics): `${stack.metricsUrl('wallet')}/metrics`.
   */
  metricsUrl(name: ServiceName | 'gateway'): string {
    const app = this.apps.get(name);
    if (!app) throw new Error(`${name} is not running`);
    return app.get(MetricsServer).url;
  }

  async startService(name: ServiceName): Promise<void> {
    const app = await SERVICES[name].create(this.env.env);
    await app.listen({ port: this.ports.get(name) ?? 0, host: '127.0.0.1' });
    this.ports.set(name, (app.getHttpServer().address() as { port: number }).port);
    this.apps.set(name, app);
  }

  /**
   * Another process of a service — its own Nest app on its own port, sharing the database,
   * Redis and NATS (or the platform database) with the first, as a second replica in
   * Kubernetes would. The gateway routes to the first only: call the replica with
   * `request(…, { baseUrl })` (same path and headers; the gateway changes neither).
   * @returns the replica's base URL, `http://127.0.0.1:<port>`
   */
  async startReplica(name: ServiceName): Promise<string> {
    const app = await SERVICES[name].create(this.env.env);
    await app.listen({ port: 0, host: '127.0.0.1' });
    this.replicas.push(app);
    return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  }

  /** Closes a process started with {@link startReplica} (by its base URL). */
  async stopReplica(baseUrl: string): Promise<void> {
    const port = Number(new URL(baseUrl).port);
    const index = this.replicas.findIndex(
      (app) => (app.getHttpServer().address() as { port: number } | null)?.port === port,
    );
    if (index < 0) throw new Error(`no replica at ${baseUrl}`);
    const [app] = this.replicas.splice(index, 1);
    await app.close();
  }

  async stopService(name: ServiceName): Promise<void> {
    await this.apps.get(name)?.close();
    this.apps.delete(name);
  }

  private async startGateway(): Promise<void> {
    const app = await this.createGateway({});
    this.gatewayUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    this.apps.set('gateway', app);
  }

  /**
   * Another gateway, closed with the stack, that sends the services of `upstreams` elsewhere —
   * e.g. the wallet to two processes of its own, `http://…:a,http://…:b` (replicas it balances,
   * docs/architecture.md § Upstream failures at the gateway) — and the others to this stack's.
   * @returns its base URL
   */
  async startGatewayTo(upstreams: Partial<Record<ServiceName, string>>): Promise<string> {
    const app = await this.createGateway(upstreams);
    this.replicas.push(app);
    return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  }

  private async createGateway(
    upstreams: Partial<Record<ServiceName, string>>,
  ): Promise<NestFastifyApplication> {
    const url = (s: ServiceName) => upstreams[s] ?? `http://127.0.0.1:${this.ports.get(s)}`;
    const config = loadConfig(gatewayConfigSchema, {
      ...this.env.env,
      AUTH_UPSTREAM_URL: url('auth'),
      ORG_UPSTREAM_URL: url('org'),
      WALLET_UPSTREAM_URL: url('wallet'),
      ANALYTICS_UPSTREAM_URL: url('analytics'),
      GATEWAY_UPSTREAM_TIMEOUT_MS: '5000',
    });
    const app = await createGatewayApp(config);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  }

  /**
   * fetch against the gateway (or `baseUrl`, e.g. a replica's) with the Api-Key (and a bearer
   * token when given).
   */
  async request(
    method: string,
    path: string,
    options: {
      body?: unknown;
      token?: string;
      headers?: Record<string, string>;
      baseUrl?: string;
    } = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const headers: Record<string, string> = { 'api-key': this.apiKey, ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${options.baseUrl ?? this.gatewayUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body, headers: res.headers };
  }

  async close(): Promise<void> {
    for (const app of this.replicas.splice(0)) await app.close().catch(() => undefined);
    for (const [name, app] of [...this.apps.entries()].reverse()) {
      await app.close().catch(() => undefined);
      this.apps.delete(name);
    }
    await this.env.cleanup();
  }
}
