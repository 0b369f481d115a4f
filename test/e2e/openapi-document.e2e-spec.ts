import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IS_PUBLIC, NO_API_KEY } from '@wp/http';
import { auditRoutes } from '@wp/testing';
import { OpenApiContract } from '../support/openapi-contract.js';
import {
  createPreviewApps,
  generateOpenApiDocument,
  OPENAPI_FILE,
  type PreviewServices,
} from '../support/openapi-document.js';
import { PlatformStack } from '../support/stack.js';

/**
 * Routes the services register that are deliberately not part of the published API (the
 * gateway does not route them; health and metrics stay outside the global prefix):
 * `METHOD /path` as Nest registers it, before the global prefix.
 * Add a route here only when clients must not call it; anything else must be documented.
 */
const UNPUBLISHED_ROUTES = new Set<string>(['GET /health/live', 'GET /health/ready']);

/** Global prefix of each service's routes (analytics serves `/api/public` itself). */
const PREFIX: Record<keyof PreviewServices, string> = {
  auth: '/v1/api',
  org: '/v1/api',
  wallet: '/v1/api',
  analytics: '',
};

type Document = {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  tags: { name: string }[];
};
const committed = (): Document =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', OPENAPI_FILE), 'utf8')) as Document;

describe('the published OpenAPI document (docs/api-documentation.md)', () => {
  let services: PreviewServices;

  beforeAll(async () => {
    services = await createPreviewApps();
  });
  afterAll(async () => {
    for (const { app } of Object.values(services ?? {})) await app.close();
  });

  it('docs/openapi.json is what the code generates (else run `npm run openapi`)', async () => {
    const generated = JSON.parse(JSON.stringify(await generateOpenApiDocument(services)));
    expect(committed()).toEqual(generated);
  });

  it('libs/client/src/schema.ts is what openapi-typescript makes of it (else `npm run openapi`)', () => {
    // The generator `npm run openapi` runs (libs/client/scripts/generate.js), on the committed
    // document (checked just above against the code).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script, not a module of the build
    const { schemaSource, SCHEMA_FILE } = require('../../libs/client/scripts/generate.js') as {
      schemaSource: () => string;
      SCHEMA_FILE: string;
    };
    expect(readFileSync(SCHEMA_FILE, 'utf8') === schemaSource()).toBe(true);
  });

  it('documents every route the services register', () => {
    const document = committed();
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const undocumented: string[] = [];
    for (const [name, { app }] of Object.entries(services) as [
      keyof PreviewServices,
      PreviewServices[keyof PreviewServices],
    ][]) {
      for (const { route } of auditRoutes(app, { isPublic: IS_PUBLIC, noApiKey: NO_API_KEY })) {
        if (UNPUBLISHED_ROUTES.has(route)) continue;
        const [method, path] = route.split(' ');
        const published = `${method} ${PREFIX[name]}${path.replace(/:(\w+)/g, '{$1}')}`;
        if (!documented.has(published)) undocumented.push(`${name}: ${published}`);
      }
    }
    expect(undocumented).toEqual([]);
    expect(documented.size).toBeGreaterThan(90);
  });

  it('every operation has a summary, a tag, security and a schema per JSON answer', () => {
    const problems: string[] = [];
    const tags = new Set(committed().tags.map((t) => t.name));
    for (const [path, item] of Object.entries(committed().paths)) {
      for (const [method, op] of Object.entries(item) as [string, Record<string, unknown>][]) {
        const name = `${method.toUpperCase()} ${path}`;
        if (!op['summary']) problems.push(`${name}: no summary`);
        if (!(op['tags'] as string[]).every((t) => tags.has(t))) problems.push(`${name}: tag`);
        if (!Array.isArray(op['security'])) problems.push(`${name}: no security`);
        for (const [status, response] of Object.entries(op['responses'] as object)) {
          const content = (response as { content?: Record<string, { schema?: unknown }> }).content;
          if (content && !Object.values(content).every((media) => media.schema !== undefined)) {
            problems.push(`${name} ${status}: no schema`);
          }
        }
        for (const status of ['400', '503']) {
          if (!(op['responses'] as object)[status as never]) problems.push(`${name}: no ${status}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('puts the security the code enforces on each operation', () => {
    const { paths } = committed();
    expect(paths['/v1/api/oauth/token']?.['post']).toHaveProperty('security', [{ apiKey: [] }]);
    expect(paths['/v1/api/wallets/{addressHash}/credits']?.['post']).toHaveProperty('security', [
      { apiKey: [], bearer: [], adminAccess: [] },
    ]);
    expect(paths['/api/public/traces']?.['get']).toHaveProperty('security', [{ basic: [] }]);
    expect(paths['/v1/api/organizations']?.['get']).toHaveProperty('security', [
      { apiKey: [], bearer: [] },
    ]);
  });
});

describe('the contract check of every answer (test/support/openapi-contract.ts)', () => {
  const contract = OpenApiContract.fromFile();
  const error = JSON.stringify({
    errors: [{ status: '404', code: 'NOT_FOUND', title: 'Not found' }],
  });
  const json = 'application/json; charset=utf-8';

  it('accepts a documented error answer and an unknown route answered 404', () => {
    expect(contract.check('GET', '/v1/api/organizations/7', 404, json, error)).toEqual([]);
    expect(contract.check('GET', '/v1/api/nowhere', 404, json, error)).toEqual([]);
  });

  it('refuses an undocumented route, status, field or shape', () => {
    expect(contract.check('GET', '/v1/api/nowhere', 200, json, '{}')).toEqual([
      'GET /v1/api/nowhere → 200: undocumented route',
    ]);
    expect(contract.check('GET', '/v1/api/organizations', 418, json, error)[0]).toMatch(
      /status not documented/,
    );
    const extra = JSON.stringify({ errors: [{ status: '404', code: 'X', title: 'x', extra: 1 }] });
    expect(contract.check('GET', '/v1/api/organizations/7', 404, json, extra)[0]).toMatch(/extra/);
    expect(contract.check('GET', '/v1/api/organizations/7', 404, json, '{"data":1}')).not.toEqual(
      [],
    );
  });

  it('refuses an error code the operation does not document for that status', () => {
    const foreign = JSON.stringify({
      errors: [{ status: '404', code: 'WALLET_NOT_FOUND', title: 'Wallet not found' }],
    });
    expect(contract.check('GET', '/v1/api/organizations/7', 404, json, foreign)[0]).toMatch(
      /errors\/0\/code must be equal to one of the allowed values/,
    );
  });

  it('prefers a literal path segment over a parameter', () => {
    expect(
      contract.check('POST', '/v1/api/wallets/transact', 201, json, '{"transaction":{}}')[0],
    ).toMatch(/\/transaction must have required property/);
  });

  it('checks a request: path ids, comma-list queries, headers and the body', () => {
    const request = (url: string, body?: unknown, headers: Record<string, string> = {}) =>
      contract.checkRequest({
        method: body === undefined ? 'GET' : 'POST',
        url,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? '' : JSON.stringify(body),
      });
    expect(request('/v1/api/organizations/7/projects?user_role=owner,ADMIN')).toEqual([]);
    expect(request('/v1/api/organizations/0/projects')[0]).toMatch(/path organizationId/);
    expect(request('/v1/api/organizations/7/projects?user_role=boss')[0]).toMatch(
      /query user_role/,
    );
    expect(
      request('/v1/api/organizations', { data: { type: 'project', attributes: { name: 'A' } } })[0],
    ).toMatch(/body: \/data\/type must be equal to constant/);
    const move = {
      transaction: {
        from_wallet: `0x${'a'.repeat(40)}`,
        to_wallet: `0x${'b'.repeat(40)}`,
        from_asset: 'CREDITS',
        to_asset: 'CREDITS',
        amount: 1,
      },
    };
    expect(request('/v1/api/wallets/transact', move, { 'idempotency-key': 'k-1' })).toEqual([]);
    expect(
      request('/v1/api/wallets/transact', move, { 'idempotency-key': 'with space' })[0],
    ).toMatch(/header Idempotency-Key/);
  });
});

describe('GET /docs/openapi.json on the gateway', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('serves the document docs/openapi.json holds', async () => {
    const res = await fetch(`${stack.gatewayUrl}/docs/openapi.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(committed());
  });
});
