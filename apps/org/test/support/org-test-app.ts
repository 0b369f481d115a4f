import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { TestEnvironment, waitFor } from '@wp/testing';
import type { DataSource } from 'typeorm';
import { DataSource as DataSourceToken } from 'typeorm';
import { orgConfigSchema } from '../../src/config/org.config.js';
import { orgDataSource } from '../../src/database/data-source.js';
import { createOrgApp } from '../../src/org.app.js';
import { authDataSource, createAuthService } from './auth-service.js';

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

export interface TestResponse {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

export interface OutboxRow {
  id: string;
  subject: string;
  payload: any;
  seq: number;
}

const PASSWORD = 'a long test password';

/**
 * The org service with the real auth service beside it, in one fresh {@link TestEnvironment}
 * (own databases, NATS namespace and Redis prefix): real PostgreSQL, Redis and NATS. Requests go
 * through `app.inject` with the environment's Api-Key.
 */
export class OrgTestContext {
  private counter = 0;

  private constructor(
    readonly env: TestEnvironment,
    readonly auth: NestFastifyApplication,
    readonly org: NestFastifyApplication,
  ) {}

  static async start(overrides: Record<string, string> = {}): Promise<OrgTestContext> {
    const env = new TestEnvironment({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false', ...overrides });
    const apps: NestFastifyApplication[] = [];
    try {
      await env.prepareDatabase('auth', authDataSource);
      await env.prepareDatabase('org', orgDataSource);
      for (const create of [
        () => createAuthService(env.env),
        () => createOrgApp(loadConfig(orgConfigSchema, env.env)),
      ]) {
        const app = await create();
        apps.push(app);
        await app.init();
        await app.getHttpAdapter().getInstance().ready();
      }
      return new OrgTestContext(env, apps[0], apps[1]);
    } catch (error) {
      for (const app of apps.reverse()) await app.close().catch(() => undefined);
      await env.cleanup();
      throw error;
    }
  }

  /** The org database. */
  get db(): DataSource {
    return this.org.get(DataSourceToken);
  }

  /** The namespace of this environment's NATS subjects and streams. */
  get namespace(): string {
    return this.env.id;
  }

  /** Registers an account through auth (no activation) and returns its id, email and token. */
  async newUser(label = 'user'): Promise<TestUser> {
    const email = `${label}-${++this.counter}-${this.env.id}@example.com`;
    const res = await this.auth.inject({
      method: 'POST',
      url: '/v1/api/users',
      headers: { 'api-key': this.env.keys.apiKey },
      payload: { username: email, password: PASSWORD },
    });
    if (res.statusCode !== 200) throw new Error(`registration failed: ${res.body}`);
    const data = res.json().data;
    return { id: data.id, email, token: data.attributes.accessToken };
  }

  /** A fresh email no account uses. */
  unknownEmail(label = 'nobody'): string {
    return `${label}-${++this.counter}-${this.env.id}@example.com`;
  }

  /** A request to the org service. */
  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
    url: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = { 'api-key': this.env.keys.apiKey, ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    const res = await this.org.inject({
      method,
      url: `/v1/api${url}`,
      headers,
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });
    let body: unknown = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.statusCode, body, headers: res.headers };
  }

  /** Creates an organization as `owner`; returns its id (string, as in envelopes). */
  async newOrganization(owner: TestUser, name = 'Acme'): Promise<string> {
    const res = await this.request('POST', '/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name } } },
    });
    if (res.status !== 200)
      throw new Error(`organization creation failed: ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  }

  /** Adds an existing user to an organization through the API. */
  async addMember(organizationId: string, actor: TestUser, user: TestUser, role: string) {
    const res = await this.request('POST', `/organizations/${organizationId}/add_user`, {
      token: actor.token,
      body: { data: { type: 'users', attributes: { email: user.email, role } } },
    });
    if (res.status !== 201) throw new Error(`add_user failed: ${JSON.stringify(res.body)}`);
    return res;
  }

  /** Creates a project as `actor`; returns its id (string). */
  async newProject(organizationId: string, actor: TestUser, name = 'Project'): Promise<string> {
    const res = await this.request('POST', `/organizations/${organizationId}/projects`, {
      token: actor.token,
      body: { data: { type: 'project', attributes: { name } } },
    });
    if (res.status !== 201) throw new Error(`project creation failed: ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  }

  /** The default project of an organization (made with it). */
  async defaultProject(organizationId: string): Promise<string> {
    const [row] = await this.db.query(
      'SELECT id FROM project WHERE organization_id = $1 AND is_default',
      [Number(organizationId)],
    );
    return String(row.id);
  }

  /**
   * Adds an existing user to a project through the API: project-only unless an organization
   * role is given.
   */
  async addProjectMember(
    organizationId: string,
    projectId: string,
    actor: TestUser,
    user: TestUser,
    role: string,
    organizationRole?: string,
  ) {
    const res = await this.request(
      'POST',
      `/organizations/${organizationId}/projects/${projectId}/add_user`,
      {
        token: actor.token,
        body: {
          data: { type: 'users', attributes: { email: user.email } },
          role,
          ...(organizationRole
            ? { organization_role: organizationRole, project_only: false }
            : { project_only: true }),
        },
      },
    );
    if (res.status !== 201) throw new Error(`project add_user failed: ${JSON.stringify(res.body)}`);
    return res;
  }

  /** Outbox rows (oldest first), optionally of one subject and after a sequence number. */
  async outbox(subject?: string, afterSeq = 0): Promise<OutboxRow[]> {
    const rows: { id: string; subject: string; payload: any; seq: string }[] = await this.db.query(
      `SELECT id, subject, payload, seq FROM outbox_message
       WHERE ($1::text IS NULL OR subject = $1) AND seq > $2 ORDER BY seq`,
      [subject ?? null, afterSeq],
    );
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  /** The highest outbox sequence number so far (to look only at what a request wrote). */
  async outboxMark(): Promise<number> {
    const [row] = await this.db.query('SELECT coalesce(max(seq), 0) AS seq FROM outbox_message');
    return Number(row.seq);
  }

  /** Waits until org's user directory knows a user (fed by auth's events). */
  async directoryHas(userId: string): Promise<void> {
    await waitFor(
      async () =>
        (await this.db.query('SELECT 1 FROM directory_user WHERE id = $1', [userId])).length > 0,
      { what: `directory entry of ${userId}` },
    );
  }

  async close(): Promise<void> {
    await this.org.close().catch(() => undefined);
    await this.auth.close().catch(() => undefined);
    await this.env.cleanup();
  }
}
