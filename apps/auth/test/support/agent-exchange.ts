import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { waitFor } from '@wp/testing';
import { startAuthTestApp, type AuthTestContext } from './auth-test-app.js';
import { registerActive } from './flows.js';
import { EventPublisher, setMembership, startAgentProbeApp } from './sentinel.js';

/** An agent activity log entry as `GET /oauth/agent/activity/logs` answers it. */
export interface LogEntry {
  activity_type: string;
  endpoint: string;
  method: string;
  status_code: number;
  success: boolean;
  service: string;
  latency_ms: number;
  error_message: string | null;
  client_address: string | null;
}

/**
 * The auth service of the Sentinel Pass exchange tests (apps/auth/test/e2e/sentinel-*.e2e-spec.ts
 * that exchange keys), the probe service beside it (`startAgentProbeApp`), an event publisher,
 * and `member`: MEMBER of organization 1 and of its project 10, where passes live by default.
 */
export interface AgentExchangeWorld {
  ctx: AuthTestContext;
  probe: NestFastifyApplication;
  events: EventPublisher;
  member: { userId: string; accessToken: string };
}

export async function startAgentExchangeWorld(): Promise<AgentExchangeWorld> {
  const ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  const world: Partial<AgentExchangeWorld> = { ctx };
  try {
    world.probe = await startAgentProbeApp(ctx);
    world.events = await EventPublisher.connect(ctx);
    const member = await registerActive(ctx);
    world.member = member;
    await setMembership(ctx, world.events, {
      userId: member.userId,
      organizationId: 1,
      projectId: null,
      role: 'MEMBER',
    });
    await setMembership(ctx, world.events, {
      userId: member.userId,
      organizationId: 1,
      projectId: 10,
      role: 'MEMBER',
    });
    return world as AgentExchangeWorld;
  } catch (error) {
    await closeAgentExchangeWorld(world);
    throw error;
  }
}

export async function closeAgentExchangeWorld(world: Partial<AgentExchangeWorld>): Promise<void> {
  await world.events?.close();
  await world.probe?.close();
  await world.ctx?.close();
}

/**
 * Declares the test file's {@link AgentExchangeWorld}: `beforeAll` starts it and fills in the
 * returned object (read its fields inside tests, not while declaring), `afterAll` closes it.
 */
export function useAgentExchangeWorld(): AgentExchangeWorld {
  const world = {} as AgentExchangeWorld;
  beforeAll(async () => {
    Object.assign(world, await startAgentExchangeWorld());
  });
  afterAll(() => closeAgentExchangeWorld(world));
  return world;
}

/**
 * The key exchange and the activity reads of the exchange tests, bound to the test file's world.
 */
export function agentExchangeHelpers(world: AgentExchangeWorld) {
  const exchange = (clientId: string, clientSecret: string, headers: Record<string, string> = {}) =>
    world.ctx.post(
      '/v1/api/oauth/token',
      { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
      headers,
    );

  /** The pass's log entries as its project member reads them, once `predicate` holds. */
  async function logsOf(
    passId: string,
    predicate: (e: LogEntry[]) => boolean,
  ): Promise<LogEntry[]> {
    const { ctx, member } = world;
    return waitFor(
      async () => {
        const res = await ctx.get(
          `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&per_page=100`,
          ctx.bearer(member.accessToken),
        );
        if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        const entries = res.json<{ data: LogEntry[] }>().data;
        return predicate(entries) ? entries : undefined;
      },
      { timeoutMs: 10_000, what: `activity of ${passId}` },
    );
  }
  return { exchange, logsOf };
}
