import { STATUS_DEFAULTS } from '@wp/http';
import {
  addErrorCodes,
  addExamples,
  closeErrorSchemas,
  descriptionsForReaders,
  pruneComponents,
} from '@wp/platform';
import { API_KEY_REFUSALS } from '../proxy/api-key-precheck.js';
import { addHeaders } from './openapi-headers.js';
import { addWebhooks } from './openapi-webhooks.js';
import type { ProxyRoute, UpstreamService } from '../proxy/routes.js';

/** The parts of an OpenAPI 3 document the merge reads and writes. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  /** Path item: operations by method, plus shared `parameters`, `summary`, …. */
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

const OPERATION_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch']);

/**
 * The contract area each path belongs to, first match wins: the operation's tag, what the tag
 * covers (its description for readers), and the section of docs/api.md it implements (its
 * `x-contract-section`; headings are the contract's section titles).
 */
export const API_SECTIONS: { pattern: RegExp; section: string; tag: string; about: string }[] = [
  {
    pattern: /\/sentinel_passes(\/|$)|^\/v1\/api\/oauth\/agent\//,
    section: 'Sentinel Passes',
    tag: 'Sentinel Pass',
    about:
      'Credentials for AI agents: create, list, rotate and revoke passes, and see what agents did.',
  },
  {
    pattern: /^\/v1\/api\/organizations\/[^/]+\/projects(\/|$)/,
    section: 'Projects',
    tag: 'Projects',
    about: 'Projects of an organization, their members, API keys and LLM provider keys.',
  },
  {
    pattern: /^\/v1\/api\/(organizations|me)(\/|$)/,
    section: 'Organizations',
    tag: 'Organizations',
    about: 'Organizations, their members, invitations, audit log and security policy.',
  },
  {
    pattern: /^\/v1\/api\/user_settings(\/|$)/,
    section: 'User settings',
    tag: 'User settings',
    about: "The signed-in user's settings per client: sidebar, language, theme, onboarding.",
  },
  {
    pattern: /^\/v1\/api\/(users|oauth)(\/|$)/,
    section: 'Accounts and sessions',
    tag: 'Accounts and sessions',
    about: 'Registration, activation, login, tokens, passwords, two-factor and sessions.',
  },
  {
    pattern: /^\/v1\/api\/(wallets|wallet_transfers)(\/|$)/,
    section: 'Wallets',
    tag: 'Wallets',
    about: 'Wallets and their money: balances, transfers, conversions, debits, credits, history.',
  },
  {
    pattern: /^\/api\/public(\/|$)/,
    section: 'Analytics',
    tag: 'Analytics',
    about: 'The Langfuse-compatible analytics API: ingestion, OTLP traces, traces and metrics.',
  },
];

function sectionOf(path: string): { section: string; tag: string } {
  return API_SECTIONS.find((s) => s.pattern.test(path)) ?? { section: 'Endpoints', tag: 'Other' };
}

/**
 * Merges the services' OpenAPI 3.1 documents into the one the gateway publishes at
 * `/docs/openapi.json`: only paths the gateway routes to that service are kept (health,
 * metrics and internal routes drop out), every operation is tagged with its service, and the
 * security schemes of the contract (docs/api.md § Authentication: `Api-Key` header, Bearer access
 * token, `Admin-Access` header) are declared, and the webhook events the platform sends are
 * described under `webhooks` (docs/webhooks.md § Event catalog). Services that did not answer
 * are named in `info.x-unavailable-services`. Pure: no I/O.
 */
export function mergeOpenApiDocuments(
  documents: Partial<Record<UpstreamService, OpenApiDocument>>,
  routes: ProxyRoute[],
  unavailable: UpstreamService[],
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Record<string, unknown> = {};
  for (const [service, document] of Object.entries(documents) as [
    UpstreamService,
    OpenApiDocument,
  ][]) {
    const prefixes = routes.filter((r) => r.service === service).map((r) => r.prefix);
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (!prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) continue;
      paths[path] = Object.fromEntries(
        Object.entries(item).map(([method, operation]) =>
          OPERATION_METHODS.has(method)
            ? [
                method,
                withGateway(
                  tagged(operation, service, sectionOf(path)),
                  routes.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`)),
                ),
              ]
            : [method, operation],
        ),
      );
    }
    Object.assign(schemas, document.components?.schemas ?? {});
  }
  const merged: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Workspace platform API',
      version: '1',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      contact: { name: 'Workspace platform maintainers' },
      description:
        'Every service behind this gateway. Contract routes live under `/v1/api`; the ' +
        'Langfuse-compatible analytics API under `/api/public`.',
      ...(unavailable.length > 0 ? { 'x-unavailable-services': unavailable } : {}),
    },
    servers: [{ url: '/' }],
    tags: API_SECTIONS.filter((s, i, all) => all.findIndex((o) => o.tag === s.tag) === i)
      .filter((s) => Object.keys(paths).some((path) => sectionOf(path).tag === s.tag))
      .map((s) => ({ name: s.tag, description: s.about, 'x-contract-section': s.section })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'Api-Key' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        adminAccess: { type: 'apiKey', in: 'header', name: 'Admin-Access' },
        basic: {
          type: 'http',
          scheme: 'basic',
          description: "A project key pair's public:secret.",
        },
      },
    },
  };
  // The services' bodies already carry examples; this adds them to the gateway's own answers.
  closeErrorSchemas(merged);
  addHeaders(merged);
  addExamples(merged, 'ErrorDocument');
  addWebhooks(merged);
  pruneComponents(merged);
  descriptionsForReaders(merged);
  return merged;
}

function withGateway(
  operation: Record<string, unknown>,
  route: ProxyRoute | undefined,
): Record<string, unknown> {
  if (operation['responses']) withGatewayAnswers(operation, route);
  return operation;
}

/** The gateway's own answer for a status, with the code and title of STATUS_DEFAULTS. */
const ownCode = (status: number) => ({ ...STATUS_DEFAULTS[status], status });

/**
 * Answers the gateway gives itself (JSON:API, docs/api-documentation.md § Error codes per
 * operation), added to the codes the service documents for the same status: 400 for a path
 * that leaves its route (`BAD_REQUEST`) or a JSON body nested too deep (`VALIDATION_FAILED`),
 * 403 for a missing or unknown `Api-Key` (where the route checks one) and 503 when the key
 * store does not answer, 413 for a body over its limit (any method: the announced length is
 * checked), 429 for its per-address rate limit, 431 for headers over Node's limit, 503
 * `UPSTREAM_UNAVAILABLE` when the service cannot be reached, 504 when it does not answer in
 * time, 502 when its answer is not HTTP (docs/architecture.md § Upstream failures at the
 * gateway). On `/api/public` the service
 * answers in Langfuse's shape, so such a status documents both bodies (`anyOf`).
 */
function withGatewayAnswers(
  operation: Record<string, unknown>,
  route: ProxyRoute | undefined,
): void {
  const responses = (operation['responses'] ??= {}) as Record<string, Record<string, unknown>>;
  const answers = [
    ownCode(400),
    { ...ownCode(400), code: 'VALIDATION_FAILED', title: 'Invalid request' },
    ownCode(413),
    ownCode(429),
    ownCode(431),
    ownCode(502),
    { ...ownCode(503), code: 'UPSTREAM_UNAVAILABLE' },
    ownCode(504),
  ];
  if (route?.apiKey !== 'none') {
    answers.push(
      ...Object.values(API_KEY_REFUSALS).map(({ code }) => ({ ...ownCode(403), code })),
      ownCode(503),
    );
  }
  for (const answer of answers) {
    addErrorCodes(responses, String(answer.status), 'ErrorDocument', [answer]);
  }
}

/** The operation with its contract-area tag, the section it implements and its service. */
function tagged(
  operation: unknown,
  service: string,
  { section, tag }: { section: string; tag: string },
): Record<string, unknown> {
  const op = operation as { tags?: string[]; description?: string; summary?: string };
  // The contract section stays machine-readable (`x-contract-section`); readers see the tag.
  return { ...op, tags: [tag], 'x-contract-section': section, 'x-service': service };
}
