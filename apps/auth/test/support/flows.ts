import { randomUUID } from 'node:crypto';
import type { EVENT_STREAMS, EventEnvelope, EventSubject } from '@wp/contracts';
import { TEST_SERVERS, waitFor } from '@wp/testing';
import { JSONCodec, connect } from 'nats';
import type { AuthTestContext } from './auth-test-app.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The session attributes of a 200 session answer. */
export interface Tokens {
  userId: string;
  accessToken: string;
  refreshToken: string;
}

export function tokensOf(body: {
  data: { id: string; attributes: { accessToken: string; refreshToken: string } };
}): Tokens {
  return {
    userId: body.data.id,
    accessToken: body.data.attributes.accessToken,
    refreshToken: body.data.attributes.refreshToken,
  };
}

/** A unique email for one test. */
export function newEmail(tag = 'user'): string {
  return `${tag}-${randomUUID().slice(0, 8)}@example.com`;
}

/** The 6-digit code in a message text. */
export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match) throw new Error(`no 6-digit code in: ${text}`);
  return match[1];
}

/** Registers by email (activation required) and activates with the mailed code. */
export async function registerAndActivate(
  ctx: AuthTestContext,
  email = newEmail(),
  password = 'correct horse battery',
): Promise<Tokens & { email: string; password: string }> {
  const registered = await ctx.post('/v1/api/users', { username: email, password });
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.body}`);
  const userId = registered.json<{ user_id: string }>().user_id;
  const mail = await ctx.smtp.nextMail(email);
  const activated = await ctx.post(`/v1/api/users/${userId}/activate/email`, {
    code: codeIn(mail.text),
  });
  if (activated.statusCode !== 200) throw new Error(`activate: ${activated.body}`);
  return { ...tokensOf(activated.json()), email, password };
}

/** Registers by email where no activation is needed (`AUTH_EMAIL_ACTIVATION_REQUIRED=false`). */
export async function registerActive(
  ctx: AuthTestContext,
  email = newEmail(),
  password = 'correct horse battery',
): Promise<Tokens & { email: string; password: string }> {
  const res = await ctx.post('/v1/api/users', { username: email, password });
  if (res.statusCode !== 200) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return { ...tokensOf(res.json()), email, password };
}

export async function login(
  ctx: AuthTestContext,
  username: string,
  password: string,
): Promise<Tokens> {
  const res = await ctx.post('/v1/api/oauth/token', { username, password });
  if (res.statusCode !== 200) throw new Error(`login: ${res.statusCode} ${res.body}`);
  return tokensOf(res.json());
}

/** Number of rows of a table in the service's database. */
export async function countRows(ctx: AuthTestContext, table: string): Promise<number> {
  const [row] = await ctx.db.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table}`);
  return Number(row.n);
}

/**
 * Events published on the real JetStream stream of this test's namespace for `subject`
 * (what other services would consume), waiting until `predicate` holds.
 */
export async function publishedEvents<S extends EventSubject>(
  ctx: AuthTestContext,
  subject: S,
  predicate: (events: EventEnvelope<S>[]) => boolean,
): Promise<EventEnvelope<S>[]> {
  const nc = await connect({ servers: TEST_SERVERS.nats });
  const codec = JSONCodec<EventEnvelope<S>>();
  const head = subject.slice(0, subject.indexOf('.')).toUpperCase() as keyof typeof EVENT_STREAMS;
  const stream = `${ctx.env.id}_${head}`;
  try {
    const jsm = await nc.jetstreamManager();
    return await waitFor(
      async () => {
        const info = await jsm.streams.info(stream);
        const events: EventEnvelope<S>[] = [];
        for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
          const msg = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
          if (!msg) continue;
          if (msg.subject === `${ctx.env.id}.${subject}`) events.push(codec.decode(msg.data));
        }
        return predicate(events) ? events : undefined;
      },
      { timeoutMs: 10_000, what: `${subject} events on ${stream}` },
    );
  } finally {
    await nc.close();
  }
}
