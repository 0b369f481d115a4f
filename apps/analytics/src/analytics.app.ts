import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@wp/platform';
import { AnalyticsAppModule } from './app.module.js';
import type { AnalyticsConfig } from './config/analytics.config.js';
import { LangfuseErrorFilter } from './modules/common/langfuse-error.filter.js';
import { langfuseErrorBody } from './modules/common/langfuse-errors.js';

/**
 * The analytics service application, not yet listening (main and tests). Its paths begin with
 * `/api/public` (docs/api.md § Versioning), so it has no `v1/api` prefix. Besides the platform's
 * HTTP behaviour it
 * - answers every error in Langfuse's shape (its filter is registered last, so it wins; the
 *   router's, the HTTP parser's and the shutdown 503 through `errorBody`),
 * - accepts OTLP protobuf bodies (`application/x-protobuf`) as raw buffers,
 * - inflates `Content-Encoding: gzip`/`deflate` bodies (OTLP exporters may compress).
 */
export async function createAnalyticsApp(config: AnalyticsConfig): Promise<NestFastifyApplication> {
  const app = await createServiceApp(AnalyticsAppModule.forRoot(config), {
    config,
    service: 'analytics',
    // Langfuse ingestion keeps events with NULs and drops the characters (docs/analytics.md).
    rejectNulInBody: false,
    errorBody: langfuseErrorBody,
  });
  app.useGlobalFilters(new LangfuseErrorFilter());
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addContentTypeParser(
    ['application/x-protobuf', 'application/protobuf'],
    { parseAs: 'buffer' },
    (_request, body, done) => done(null, body),
  );
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
    if (encoding !== 'gzip' && encoding !== 'deflate') return done(null, payload);
    const counter = new EncodedLengthCounter();
    const inflate = encoding === 'gzip' ? createGunzip() : createInflate();
    const decoded = payload.pipe(counter).pipe(inflate) as typeof inflate & {
      receivedEncodedLength?: number;
    };
    // Fastify compares Content-Length with the bytes received on the wire, not the inflated ones.
    counter.on('data', () => (decoded.receivedEncodedLength = counter.bytes));
    counter.on('error', (error) => decoded.destroy(error));
    done(null, decoded);
  });
  return app;
}

class EncodedLengthCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}
