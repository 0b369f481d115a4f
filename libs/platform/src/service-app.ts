import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { PlatformConfig } from '@wp/config';
import { createHttpApp, type ErrorBodyFormat } from '@wp/http';
import { PinoLogger } from '@wp/observability';
import { installOpenApiDocument, type OpenApiMetadata } from './openapi.js';

export interface ServiceAppOptions {
  config: PlatformConfig;
  /** Service name, used in its OpenAPI document's title. */
  service?: string;
  /** Route prefix of contract paths (`v1/api`), or none (analytics serves `/api/public`). */
  globalPrefix?: string;
  prefixExclusions?: string[];
  /** See `HttpAppOptions.rejectNulInBody` (default true). */
  rejectNulInBody?: boolean;
  /** See `HttpAppOptions.errorBody` (default JSON:API). */
  errorBody?: ErrorBodyFormat;
  /** See `HttpAppOptions.preview`: routes only, no provider is created. */
  preview?: boolean;
  /** The service's generated `src/openapi-metadata.ts` (docs/api-documentation.md). */
  openApiMetadata?: OpenApiMetadata;
}

/**
 * Creates a service's Nest application on Fastify with the platform's HTTP behaviour and
 * pino as the logger, and its OpenAPI document at `GET /openapi.json`. Listen with
 * `app.listen({ port, host })`.
 */
export async function createServiceApp(
  module: unknown,
  options: ServiceAppOptions,
): Promise<NestFastifyApplication> {
  const app = await createHttpApp(module, {
    bodyLimit: options.config.HTTP_BODY_LIMIT_BYTES,
    maxJsonDepth: options.config.HTTP_MAX_JSON_DEPTH,
    strictTransportSecurity: options.config.STRICT_TRANSPORT_SECURITY,
    trustProxy: options.config.TRUST_PROXY,
    globalPrefix: options.globalPrefix,
    prefixExclusions: options.prefixExclusions,
    rejectNulInBody: options.rejectNulInBody,
    errorBody: options.errorBody,
    preview: options.preview,
  });
  if (!options.preview) app.useLogger(app.get(PinoLogger));
  installOpenApiDocument(app, options.service ?? 'platform', options.openApiMetadata);
  return app;
}
