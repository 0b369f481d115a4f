import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EVENT_CATALOG, type EventPayload, type EventSubject } from '@wp/contracts';
import { loadConfig } from '@wp/config';
import { EventTransport } from '@wp/messaging';
import { TestEnvironment, waitFor } from '@wp/testing';
import { DataSource } from 'typeorm';
import { createAnalyticsApp } from '../../src/analytics.app.js';
import { analyticsConfigSchema, type AnalyticsConfig } from '../../src/config/analytics.config.js';
import { analyticsDataSource } from '../../src/database/data-source.js';
import { ProjectKeyCache } from '../../src/modules/projects/project-key-cache.js';

export interface KeyPair {
  publicKey: string;
  secretKey: string;
}

export interface TestProject {
  projectId: number;
  organizationId: number;
  keys: KeyPair;
  /** `Authorization` header value for the pair. */
  basic: string;
}

let nextProjectId = 1000;

/** A fresh Langfuse-style key pair (the org service makes them the same way: pk-/sk- + random). */
export function newKeyPair(): KeyPair {
  return {
    publicKey: `pk-lf-${randomBytes(12).toString('hex')}`,
    secretKey: `sk-lf-${randomBytes(24).toString('hex')}`,
  };
}

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function basicAuth(keys: KeyPair): string {
  return `Basic ${Buffer.from(`${keys.publicKey}:${keys.secretKey}`).toString('base64')}`;
}

/**
 * The analytics service on a loopback port against a fresh database, NATS namespace and Redis
 * prefix (real PostgreSQL, Redis, NATS). Projects and key pairs are made the way production
 * makes them: `org.*` events on the namespaced JetStream subjects, in the envelope of
 * libs/messaging, consumed by the service's durable consumers.
 */
export class AnalyticsTestApp {
  baseUrl = '';
  private versions = new Map<number, number>();

  private constructor(
    readonly env: TestEnvironment,
    readonly app: NestFastifyApplication,
    readonly config: AnalyticsConfig,
  ) {}

  static async start(overrides: Record<string, string> = {}): Promise<AnalyticsTestApp> {
    const env = new TestEnvironment(overrides);
    let app: NestFastifyApplication | undefined;
    try {
      await env.prepareDatabase('analytics', analyticsDataSource);
      await env.vouchFor(['auth', 'org']); // played by the tests: events, keys

      const config = loadConfig(analyticsConfigSchema, env.env);
      app = await createAnalyticsApp(config);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const ctx = new AnalyticsTestApp(env, app, config);
      ctx.baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
      return ctx;
    } catch (error) {
      await app?.close().catch(() => undefined);
      await env.cleanup();
      throw error;
    }
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  /** Publishes an `org.*` event exactly as the catalog defines it (validated first). */
  async publish<S extends EventSubject>(subject: S, payload: EventPayload<S>): Promise<string> {
    const id = randomUUID();
    await this.app.get(EventTransport).publish({
      id,
      subject,
      occurredAt: new Date().toISOString(),
      payload: EVENT_CATALOG[subject].parse(payload),
    });
    return id;
  }

  /**
   * A project with one key pair (optionally more, or expiring), announced by `org.project.created`
   * and `org.project.keys.changed`; resolves once the service accepts the first pair.
   */
  async createProject(
    options: { keys?: { pair: KeyPair; expiresAt?: string | null }[] } = {},
  ): Promise<TestProject> {
    const projectId = nextProjectId++;
    const organizationId = projectId * 10;
    const keys = options.keys ?? [{ pair: newKeyPair() }];
    await this.publish('org.project.created', {
      organizationId,
      projectId,
      name: `Project ${projectId}`,
      isDefault: true,
      createdBy: randomUUID(),
      createdAt: new Date().toISOString(),
    });
    await this.setKeys(projectId, organizationId, keys);
    const first = keys[0].pair;
    await waitFor(() => this.keyCache.verify(first.publicKey, first.secretKey) === projectId, {
      timeoutMs: 5000,
      what: `key pair of project ${projectId}`,
    }).catch((error: unknown) => {
      if (keys[0].expiresAt) return; // an expired first key never verifies
      throw error;
    });
    return { projectId, organizationId, keys: first, basic: basicAuth(first) };
  }

  /** Replaces a project's key set (`org.project.keys.changed`, next version). */
  async setKeys(
    projectId: number,
    organizationId: number,
    keys: { pair: KeyPair; expiresAt?: string | null }[],
  ): Promise<void> {
    const version = (this.versions.get(projectId) ?? 0) + 1;
    this.versions.set(projectId, version);
    await this.publish('org.project.keys.changed', {
      organizationId,
      projectId,
      version,
      keys: keys.map((k, i) => ({
        id: `key-${projectId}-${version}-${i}`,
        publicKey: k.pair.publicKey,
        secretKeySha256: sha256(k.pair.secretKey),
        expiresAt: k.expiresAt ?? null,
      })),
    });
  }

  get keyCache(): ProjectKeyCache {
    return this.app.get(ProjectKeyCache);
  }

  /** fetch against the service with Basic auth (or none). */
  async request(
    method: string,
    path: string,
    options: { auth?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth) headers['authorization'] = options.auth;
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string' || options.body instanceof Uint8Array
            ? (options.body as string)
            : JSON.stringify(options.body),
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
    await this.app.close().catch(() => undefined);
    await this.env.cleanup();
  }
}

/** An ingestion event envelope. */
export function event(type: string, body: Record<string, unknown>, timestamp = new Date()) {
  return { id: randomUUID(), timestamp: timestamp.toISOString(), type, body };
}
