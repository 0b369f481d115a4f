import { randomBytes, randomUUID } from 'node:crypto';
import { Controller, Get, Module, Param, type DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, platformSchema, type PlatformConfig } from '@wp/config';
import type { EventPayload, EventSubject, Role } from '@wp/contracts';
import { NotFoundError } from '@wp/http';
import { createServiceApp, PlatformModule } from '@wp/platform';
import { CurrentPrincipal, hashSentinelKey, type Principal } from '@wp/security';
import { publishEvent } from '@wp/event-testing';
import { waitFor } from '@wp/testing';
import { authDataSource } from '../../src/database/data-source.js';
import type { AuthTestContext } from './auth-test-app.js';

/**
 * Publishes events on this test's namespace as another service's outbox relay would: one
 * envelope per call, through the auth app's event transport (JetStream, whose streams the app
 * created at boot, or pg-boss in embedded mode).
 */
export class EventPublisher {
  private constructor(private readonly app: NestFastifyApplication) {}

  static connect(ctx: AuthTestContext): Promise<EventPublisher> {
    return Promise.resolve(new EventPublisher(ctx.app));
  }

  async publish<S extends EventSubject>(subject: S, payload: EventPayload<S>): Promise<void> {
    await publishEvent(this.app, subject, payload);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export interface PassSpec {
  passId?: string;
  organizationId?: number;
  projectId?: number;
  key?: string;
  active?: boolean;
  deleted?: boolean;
  expiresAt?: string | null;
  allowedReferers?: string[];
  scopes?: string[];
  permissions?: string[];
  version?: number;
  /** Org's credential epoch after the change (absent: an event of before it existed). */
  credentialEpoch?: number;
}

/** A new high-entropy Sentinel Pass key, as org would generate it. */
export function newKey(): string {
  return `sp_${randomBytes(32).toString('base64url')}`;
}

/** Publishes `org.sentinel_pass.changed` and waits until auth stored that version. */
export async function upsertPass(
  ctx: AuthTestContext,
  events: EventPublisher,
  spec: PassSpec,
): Promise<{ passId: string; key: string; version: number }> {
  const passId = spec.passId ?? randomUUID();
  const key = spec.key ?? newKey();
  const version = spec.version ?? 1;
  await events.publish('org.sentinel_pass.changed', {
    passId,
    organizationId: spec.organizationId ?? 1,
    projectId: spec.projectId ?? 10,
    title: 'agent',
    active: spec.active ?? true,
    deleted: spec.deleted ?? false,
    keyHash: hashSentinelKey(key),
    expiresAt: spec.expiresAt ?? null,
    allowedReferers: spec.allowedReferers ?? [],
    scopes: spec.scopes ?? [],
    permissions: spec.permissions ?? [],
    version,
    ...(spec.credentialEpoch === undefined ? {} : { credentialEpoch: spec.credentialEpoch }),
  });
  await waitFor(
    async () => {
      const rows = await ctx.db.query<{ version: number }[]>(
        'SELECT version FROM sentinel_pass WHERE id = $1',
        [passId],
      );
      return rows[0] !== undefined && rows[0].version >= version;
    },
    { what: `pass ${passId} v${version}`, timeoutMs: 10_000 },
  );
  return { passId, key, version };
}

/** Publishes `org.membership.changed` and waits until auth stored it. */
export async function setMembership(
  ctx: AuthTestContext,
  events: EventPublisher,
  m: {
    userId: string;
    organizationId: number;
    projectId: number | null;
    role: Role | null;
    accessDenied?: boolean;
    version?: number;
  },
): Promise<void> {
  const version = m.version ?? 1;
  await events.publish('org.membership.changed', {
    organizationId: m.organizationId,
    projectId: m.projectId,
    userId: m.userId,
    role: m.role,
    accessDenied: m.accessDenied ?? false,
    version,
  });
  await waitFor(
    async () => {
      const rows = await ctx.db.query<{ version: number }[]>(
        'SELECT version FROM membership WHERE user_id = $1 AND organization_id = $2 AND project_id = $3',
        [m.userId, m.organizationId, m.projectId ?? 0],
      );
      return rows[0] !== undefined && rows[0].version >= version;
    },
    { what: `membership of ${m.userId}`, timeoutMs: 10_000 },
  );
}

/** Guarded routes of "the org service" for agent calls. */
@Controller('probe/organizations')
class AgentProbeController {
  @Get(':organizationId')
  show(
    @Param('organizationId') organizationId: string,
    @CurrentPrincipal() principal: Principal,
  ): { organizationId: string; agent: Principal['agent'] } {
    if (organizationId === '404') throw new NotFoundError('Organization');
    return { organizationId, agent: principal.agent };
  }
}

@Module({})
class AgentProbeModule {
  static forRoot(config: PlatformConfig, databaseUrl: string): DynamicModule {
    return {
      module: AgentProbeModule,
      imports: [
        PlatformModule.forRoot({
          service: 'org',
          config,
          database: { url: databaseUrl, entities: [], migrations: [] },
          activity: { flushIntervalMs: 100 },
        }),
      ],
      controllers: [AgentProbeController],
    };
  }
}

/**
 * Another service built on `PlatformModule`, named `org` so that its agent activity travels as
 * `org.activity.recorded` (the shared pipeline, not auth's own code). Its own database (the
 * auth migrations bring the outbox tables). Serves `GET /v1/api/probe/organizations/:organizationId`
 * (404 for id 404).
 */
export async function startAgentProbeApp(ctx: AuthTestContext): Promise<NestFastifyApplication> {
  const databaseUrl = await ctx.env.prepareDatabase('agentprobe', authDataSource);
  const config = loadConfig(platformSchema, ctx.env.env);
  const app = await createServiceApp(AgentProbeModule.forRoot(config, databaseUrl), {
    config,
    globalPrefix: 'v1/api',
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/** A minimal RFC 4180 parser (quoted fields, doubled quotes, CRLF or LF inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** One seeded activity row: `at` is its ISO time; the rest default to a 200 GET of `/v1/api/a`. */
export interface ActivitySeed {
  at: string;
  type?: 'api_request' | 'token_generation' | 'error';
  endpoint?: string;
  method?: string;
  status?: number;
  latency?: number;
  error?: string | null;
}

/**
 * A new pass (via `org.sentinel_pass.changed`) with `rows` inserted straight into
 * `agent_activity` (recording itself is proven in sentinel-activity-recording.e2e-spec.ts); its id.
 */
export async function passWithActivity(
  ctx: AuthTestContext,
  events: EventPublisher,
  rows: ActivitySeed[],
): Promise<string> {
  const { passId } = await upsertPass(ctx, events, {});
  for (const r of rows) {
    const type = r.type ?? 'api_request';
    await ctx.db.query(
      `INSERT INTO agent_activity (id, agent_user_id, activity_type, service, endpoint, method,
         status_code, latency_ms, success, client_address, error_message, occurred_at)
       VALUES ($1, $2, $3, 'org', $4, $5, $6, $7, $8, '10.0.0.1', $9, $10)`,
      [
        randomUUID(),
        passId,
        type,
        r.endpoint ?? '/v1/api/a',
        r.method ?? 'GET',
        r.status ?? (type === 'error' ? 500 : 200),
        r.latency ?? 10,
        type !== 'error',
        r.error ?? null,
        r.at,
      ],
    );
  }
  return passId;
}
