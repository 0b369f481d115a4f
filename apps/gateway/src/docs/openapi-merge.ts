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
 * Merges the services' OpenAPI documents into the one the gateway publishes at
 * `/docs/openapi.json`: only paths the gateway routes to that service are kept (health,
 * metrics and internal routes drop out), every operation is tagged with its service, and the
 * security schemes of the contract (docs/api.md § Authentication: `Api-Key` header, Bearer access
 * token, `Admin-Access` header) are declared. Services that did not answer are named in
 * `info.x-unavailable-services`. Pure: no I/O.
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
            ? [method, tagged(operation, service)]
            : [method, operation],
        ),
      );
    }
    Object.assign(schemas, document.components?.schemas ?? {});
  }
  return {
    openapi: '3.0.0',
    info: {
      title: 'Workspace platform API',
      version: '1',
      description:
        'Every service behind this gateway. Contract routes live under `/v1/api`; the ' +
        'Langfuse-compatible analytics API under `/api/public`.',
      ...(unavailable.length > 0 ? { 'x-unavailable-services': unavailable } : {}),
    },
    servers: [{ url: '/' }],
    tags: [...new Set(routes.map((r) => r.service))].map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'Api-Key' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        adminAccess: { type: 'apiKey', in: 'header', name: 'Admin-Access' },
      },
    },
    security: [{ apiKey: [], bearer: [] }],
  };
}

function tagged(operation: unknown, service: string): Record<string, unknown> {
  const op = operation as { tags?: string[] };
  return { ...op, tags: [service, ...(op.tags ?? [])] };
}
