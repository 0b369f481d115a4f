import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { GatewayConfig } from '../config/gateway.config.js';
import { proxyRoutes, upstreamUrls, type UpstreamService } from '../proxy/routes.js';
import { mergeOpenApiDocuments, type OpenApiDocument } from './openapi-merge.js';

/** How long a merged document is kept when every service answered, ms. */
const CACHE_MS = 60_000;
const UPSTREAM_TIMEOUT_MS = 2_000;
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Workspace platform API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/docs/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  persistAuthorization: true,
});
`;

/**
 * `/docs` on the gateway (docs/architecture.md § Shape): Swagger UI (swagger-ui-dist, served from
 * memory) over `/docs/openapi.json`, the services' own documents (`GET /openapi.json` on each)
 * merged by {@link mergeOpenApiDocuments}. Fetched on demand with a 2 s deadline per service and
 * kept for 60 s when complete; a service that is down is listed in `info.x-unavailable-services`
 * instead of failing the page. No Api-Key needed: the documentation is public.
 */
export function installDocs(app: NestFastifyApplication, config: GatewayConfig): void {
  const fastify = app.getHttpAdapter().getInstance();
  const assets = new Map(
    Object.entries(ASSETS).map(([name, type]) => [
      name,
      { type, body: readFileSync(join(SWAGGER_UI_DIR, name)) },
    ]),
  );
  assets.set('init.js', { type: 'application/javascript; charset=utf-8', body: Buffer.from(INIT) });
  const routes = proxyRoutes(config);
  const services = [...new Set(routes.map((r) => r.service))];
  let cached: { document: OpenApiDocument; until: number } | undefined;

  fastify.get('/docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(PAGE),
  );
  fastify.get<{ Params: { name: string } }>('/docs/assets/:name', async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
  });
  fastify.get('/docs/openapi.json', async (_request, reply) => {
    if (!cached || cached.until < Date.now()) {
      const results = await Promise.all(
        services.map(async (service) => [service, await fetchDocument(config, service)] as const),
      );
      const documents: Partial<Record<UpstreamService, OpenApiDocument>> = {};
      const unavailable: UpstreamService[] = [];
      for (const [service, document] of results) {
        if (document) documents[service] = document;
        else unavailable.push(service);
      }
      const document = mergeOpenApiDocuments(documents, routes, unavailable);
      cached = { document, until: unavailable.length === 0 ? Date.now() + CACHE_MS : 0 };
    }
    return reply.header('cache-control', 'no-cache').send(cached.document);
  });
}

/** The service's document from the first of its replicas that answers it. */
async function fetchDocument(
  config: GatewayConfig,
  service: UpstreamService,
): Promise<OpenApiDocument | undefined> {
  for (const base of upstreamUrls(config, service)) {
    try {
      const res = await fetch(new URL('/openapi.json', base), {
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      });
      if (!res.ok) continue;
      const document = (await res.json()) as OpenApiDocument;
      if (typeof document?.paths === 'object') return document;
    } catch {
      // that replica is down or slow: the next one
    }
  }
  return undefined;
}
