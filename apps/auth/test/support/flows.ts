import { randomUUID } from 'node:crypto';
import type { EventEnvelope, EventSubject } from '@wp/contracts';
import { publishedEvents as publishedEventsOf } from '@wp/event-testing';
import { waitFor } from '@wp/testing';
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
 * Events published for `subject` in this test's namespace (what other services would consume:
 * the JetStream stream, or in embedded mode what auth's relay published), waiting until
 * `predicate` holds.
 */
export async function publishedEvents<S extends EventSubject>(
  ctx: AuthTestContext,
  subject: S,
  predicate: (events: EventEnvelope<S>[]) => boolean,
): Promise<EventEnvelope<S>[]> {
  return waitFor(
    async () => {
      const events = await publishedEventsOf(ctx.env, ctx.db, subject);
      return predicate(events) ? events : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 200, what: `${subject} events` },
  );
}
