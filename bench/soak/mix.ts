import { randomUUID } from 'node:crypto';
import type { Operation } from '../lib/load.js';
import { transactRequest } from '../support/transact-request.js';
import { basic, call, signUp, type Account, type Gateway } from './world.js';

/** One kind of request of the mix, drawn with probability weight ÷ total. */
interface Action {
  name: string;
  weight: number;
  run: () => Promise<true | string>;
}

/** Answers per action: successes and failures by reason (printed at the end). */
export class MixCounts {
  readonly ok = new Map<string, number>();
  readonly failed = new Map<string, number>();

  note(action: string, outcome: true | string): void {
    if (outcome === true) this.ok.set(action, (this.ok.get(action) ?? 0) + 1);
    else {
      const key = `${action}: ${outcome}`.slice(0, 200);
      this.failed.set(key, (this.failed.get(key) ?? 0) + 1);
    }
  }
}

const status =
  (...ok: number[]) =>
  (res: { status: number }): true | string =>
    ok.includes(res.status) ? true : `HTTP ${res.status}`;

/**
 * The soak's request mix, a day of a client app's traffic squeezed into the run: reads
 * dominate (token info, organizations, projects, settings, wallets, analytics), with a steady
 * trickle of writes (refreshes, logins, project renames and creations, settings, invitations
 * sent and cancelled, transfers, analytics batches) and of new tenants (sign-up → organization →
 * project, so every id-keyed structure in every service sees new keys all the time).
 */
export function soakMix(gw: Gateway, accounts: Account[], counts: MixCounts): Operation {
  let refreshTurn = 0;
  let signUps = 0;
  const traceIds: { account: Account; id: string }[] = [];
  const invitations: { account: Account; id: string }[] = [];
  const pick = () => accounts[Math.floor(Math.random() * accounts.length)];
  const org = (a: Account) => `/organizations/${a.organizationId}`;
  const project = (a: Account) => `${org(a)}/projects/${a.projectId}`;
  const get = (a: Account, path: string) => call(gw, 'GET', path, { token: a.token });

  const actions: Action[] = [
    {
      name: 'token info',
      weight: 8,
      run: async () => status(200)(await get(pick(), '/oauth/token/info')),
    },
    {
      name: 'refresh',
      weight: 3,
      run: async () => {
        const a = accounts[refreshTurn++ % accounts.length];
        const res = await call(gw, 'POST', '/oauth/token/refresh', {
          body: { refresh_token: a.refreshToken },
        });
        if (res.status !== 200) return `HTTP ${res.status}`;
        a.token = res.json.data.attributes.accessToken;
        a.refreshToken = res.json.data.attributes.refreshToken;
        return true;
      },
    },
    {
      name: 'login',
      weight: 1,
      run: async () => {
        const a = pick();
        const body = { username: a.email, password: a.password };
        return status(200)(await call(gw, 'POST', '/oauth/token', { body }));
      },
    },
    {
      name: 'validate email',
      weight: 1,
      run: async () =>
        status(200)(
          await call(gw, 'GET', `/users/validate/email?email=${encodeURIComponent(pick().email)}`),
        ),
    },
    {
      name: 'organizations',
      weight: 5,
      run: async () => status(200)(await get(pick(), '/organizations')),
    },
    {
      name: 'organization + includes',
      weight: 4,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `${org(a)}?include=projects,users`));
      },
    },
    {
      name: 'projects list',
      weight: 5,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `${org(a)}/projects`));
      },
    },
    {
      name: 'project',
      weight: 3,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, project(a)));
      },
    },
    {
      name: 'members',
      weight: 2,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `${org(a)}/users`));
      },
    },
    {
      name: 'audit log',
      weight: 1,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `${org(a)}/audit_log`));
      },
    },
    {
      name: 'project rename',
      weight: 1,
      run: async () => {
        const a = pick();
        const body = {
          data: {
            id: String(a.projectId),
            type: 'project',
            attributes: { name: `Soak ${randomUUID().slice(0, 6)}` },
          },
        };
        return status(200)(await call(gw, 'PATCH', project(a), { token: a.token, body }));
      },
    },
    {
      name: 'project create',
      weight: 0.3,
      run: async () => {
        const a = pick();
        const body = {
          data: { type: 'project', attributes: { name: `Extra ${randomUUID().slice(0, 6)}` } },
        };
        return status(
          200,
          201,
        )(await call(gw, 'POST', `${org(a)}/projects`, { token: a.token, body }));
      },
    },
    {
      name: 'settings',
      weight: 4,
      run: async () => status(200)(await get(pick(), '/user_settings')),
    },
    {
      name: 'settings update',
      weight: 1,
      run: async () => {
        const a = pick();
        const body = {
          theme: Math.random() < 0.5 ? 'dark' : 'light',
          current_organization_id: a.organizationId,
        };
        return status(200)(await call(gw, 'PATCH', '/user_settings', { token: a.token, body }));
      },
    },
    {
      name: 'invite',
      weight: 0.7,
      run: async () => {
        const a = pick();
        const body = {
          data: {
            type: 'membershipInvitation',
            attributes: {
              email: `invitee-${randomUUID().slice(0, 8)}@soak.example.com`,
              orgRole: 'member',
            },
          },
        };
        const res = await call(gw, 'POST', `${org(a)}/invitations`, { token: a.token, body });
        if (res.status !== 201) return `HTTP ${res.status}`;
        invitations.push({ account: a, id: String(res.json.data.id) });
        return true;
      },
    },
    {
      name: 'invitation cancel',
      weight: 0.6,
      run: async () => {
        const next = invitations.shift();
        if (!next) return true;
        const path = `${org(next.account)}/invitations/${next.id}`;
        return status(204, 200)(await call(gw, 'DELETE', path, { token: next.account.token }));
      },
    },
    { name: 'wallets', weight: 5, run: async () => status(200)(await get(pick(), '/wallets')) },
    {
      name: 'wallet',
      weight: 2,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `/wallets/${a.wallet}`));
      },
    },
    {
      name: 'wallet movements',
      weight: 2,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `/wallets/${a.wallet}/transactions`));
      },
    },
    {
      name: 'transfer',
      weight: 3,
      run: async () => {
        const from = pick();
        let to = pick();
        while (to === from && accounts.length > 1) to = pick();
        const req = transactRequest(gw.apiKey, from, to, 'soak');
        return status(
          200,
          201,
        )(
          await call(gw, 'POST', '/wallets/transact', {
            token: from.token,
            body: JSON.parse(req.body ?? '{}'),
          }),
        );
      },
    },
    {
      name: 'analytics batch',
      weight: 6,
      run: async () => {
        const a = pick();
        const { events, traceId } = analyticsBatch();
        const res = await call(gw, 'POST', '/api/public/ingestion', {
          headers: { authorization: basic(a.keys) },
          body: { batch: events },
        });
        if (res.status !== 207) return `HTTP ${res.status}`;
        traceIds.push({ account: a, id: traceId });
        if (traceIds.length > 1000) traceIds.shift();
        return true;
      },
    },
    {
      name: 'analytics traces',
      weight: 3,
      run: async () => {
        const a = pick();
        return status(200)(
          await call(gw, 'GET', '/api/public/traces?limit=20', {
            headers: { authorization: basic(a.keys) },
          }),
        );
      },
    },
    {
      name: 'analytics trace',
      weight: 1.5,
      run: async () => {
        const t = traceIds[Math.floor(Math.random() * traceIds.length)];
        if (!t) return true;
        return status(200)(
          await call(gw, 'GET', `/api/public/traces/${t.id}`, {
            headers: { authorization: basic(t.account.keys) },
          }),
        );
      },
    },
    {
      name: 'analytics metrics',
      weight: 2,
      run: async () => {
        const a = pick();
        const now = Date.now();
        const query = new URLSearchParams({
          fromTimestamp: new Date(now - 7 * 86_400_000).toISOString(),
          toTimestamp: new Date(now).toISOString(),
        });
        const path = `/api/public/metrics/daily?${query.toString()}`;
        return status(200)(
          await call(gw, 'GET', path, { headers: { authorization: basic(a.keys) } }),
        );
      },
    },
    {
      name: 'settings + dashboard',
      weight: 1,
      run: async () => status(200)(await get(pick(), '/user_settings?includes=dashboard')),
    },
    {
      name: 'organization (ETag)',
      weight: 1,
      run: async () => {
        const a = pick();
        const first = await call(gw, 'GET', org(a), { token: a.token, raw: true });
        const etag = first.headers?.['etag'];
        if (first.status !== 200 || typeof etag !== 'string') return `HTTP ${first.status}`;
        const again = await call(gw, 'GET', org(a), {
          token: a.token,
          headers: { 'if-none-match': etag },
          raw: true,
        });
        return status(304, 200)(again);
      },
    },
    {
      name: 'key pair create + delete',
      weight: 0.4,
      run: async () => {
        const a = pick();
        const path = `${project(a)}/api_keys`;
        const body = { data: { attributes: { note: 'soak' } } };
        const created = await call(gw, 'POST', path, { token: a.token, body });
        if (created.status !== 201) return `create: HTTP ${created.status}`;
        const removed = await call(gw, 'DELETE', `${path}/${created.json.data.id}`, {
          token: a.token,
        });
        return status(200, 204)(removed);
      },
    },
    {
      name: 'sentinel pass create + list + delete',
      weight: 0.4,
      run: async () => {
        const a = pick();
        const path = `${project(a)}/sentinel_passes`;
        const body = {
          sentinelPass: { title: 'Soak bot', permissions: ['projects:read'], tags: ['soak'] },
        };
        const created = await call(gw, 'POST', path, { token: a.token, body });
        if (created.status !== 201) return `create: HTTP ${created.status}`;
        const list = await get(a, path);
        if (list.status !== 200) return `list: HTTP ${list.status}`;
        const removed = await call(gw, 'DELETE', `${path}/${created.json.data.id}`, {
          token: a.token,
        });
        return status(200, 204)(removed);
      },
    },
    {
      name: 'project create + delete',
      weight: 0.2,
      run: async () => {
        const a = pick();
        const body = {
          data: { type: 'project', attributes: { name: `Brief ${randomUUID().slice(0, 6)}` } },
        };
        const created = await call(gw, 'POST', `${org(a)}/projects`, { token: a.token, body });
        if (created.status !== 200 && created.status !== 201)
          return `create: HTTP ${created.status}`;
        const removed = await call(gw, 'DELETE', `${org(a)}/projects/${created.json.data.id}`, {
          token: a.token,
        });
        return status(200, 204)(removed);
      },
    },
    {
      name: 'sessions',
      weight: 0.5,
      run: async () => status(200)(await get(pick(), '/users/me/sessions')),
    },
    {
      name: 'pending transfers',
      weight: 0.5,
      run: async () => status(200)(await get(pick(), '/wallet_transfers/pending')),
    },
    {
      name: 'analytics traces (filtered)',
      weight: 1,
      run: async () => {
        const a = pick();
        const query = new URLSearchParams({
          userId: `end-user-${Math.floor(Math.random() * 100)}`,
          name: 'chat-0',
          tags: 'soak',
          orderBy: 'timestamp.desc',
          limit: '10',
        });
        return status(200)(
          await call(gw, 'GET', `/api/public/traces?${query.toString()}`, {
            headers: { authorization: basic(a.keys) },
          }),
        );
      },
    },
    {
      name: 'analytics OTLP export',
      weight: 2,
      run: async () => {
        const a = pick();
        return status(200)(
          await call(gw, 'POST', '/api/public/otel/v1/traces', {
            headers: { authorization: basic(a.keys) },
            body: otlpExport(),
          }),
        );
      },
    },
    {
      name: 'sign-up (3 requests)',
      weight: 0.5,
      run: async () => {
        await signUp(gw, `new${signUps++}`);
        return true;
      },
    },
  ];
  const total = actions.reduce((sum, a) => sum + a.weight, 0);
  return async () => {
    let draw = Math.random() * total;
    const action = actions.find((a) => (draw -= a.weight) < 0) ?? actions[0];
    let outcome: true | string;
    try {
      outcome = await action.run();
    } catch (error) {
      outcome = (error as Error).message;
    }
    counts.note(action.name, outcome);
    return outcome;
  };
}

/** One OTLP/HTTP JSON export: a trace of an LLM call (root span and a generation span). */
function otlpExport(): unknown {
  const hex = (bytes: number) =>
    randomUUID()
      .replace(/-/g, '')
      .slice(0, bytes * 2);
  const traceId = hex(16);
  const root = hex(8);
  const now = BigInt(Date.now()) * 1_000_000n;
  const span = (spanId: string, name: string, parent?: string, model?: string) => ({
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    startTimeUnixNano: String(now - 2_000_000_000n),
    endTimeUnixNano: String(now),
    attributes: [
      { key: 'langfuse.trace.name', value: { stringValue: 'otel-chat' } },
      ...(model
        ? [
            { key: 'gen_ai.request.model', value: { stringValue: model } },
            { key: 'gen_ai.usage.input_tokens', value: { intValue: '120' } },
            { key: 'gen_ai.usage.output_tokens', value: { intValue: '40' } },
          ]
        : []),
    ],
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'soak' } }] },
        scopeSpans: [
          {
            scope: { name: 'soak' },
            spans: [span(root, 'handle'), span(hex(8), 'llm', root, 'gpt-4o-mini')],
          },
        ],
      },
    ],
  };
}

/** Two traces of a chat app, each with a generation and a span (Langfuse ingestion events). */
function analyticsBatch(): { events: unknown[]; traceId: string } {
  const ts = new Date().toISOString();
  const e = (type: string, body: object) => ({ id: randomUUID(), timestamp: ts, type, body });
  const events: unknown[] = [];
  let traceId = '';
  for (let t = 0; t < 2; t++) {
    traceId = randomUUID();
    events.push(
      e('trace-create', {
        id: traceId,
        timestamp: ts,
        name: `chat-${t}`,
        userId: `end-user-${Math.floor(Math.random() * 100)}`,
        tags: ['soak'],
        input: { q: 'hello' },
      }),
      e('generation-create', {
        id: randomUUID(),
        traceId,
        startTime: ts,
        endTime: ts,
        model: 'gpt-4o',
        usage: { input: 500, output: 50 },
        input: [{ role: 'user', content: 'hi' }],
        output: 'hello',
      }),
      e('span-create', {
        id: randomUUID(),
        traceId,
        startTime: ts,
        endTime: ts,
        name: 'retrieval',
      }),
    );
  }
  return { events, traceId };
}
