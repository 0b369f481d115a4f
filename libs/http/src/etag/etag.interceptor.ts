import {
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { ifNoneMatchMatches, weakETag } from './etag.js';

/**
 * Conditional GET for single-resource routes (docs/architecture.md § Caching: single resources
 * carry `ETag`). On a 200 answer to GET or HEAD: `ETag` = weak tag of the JSON body (so it changes
 * with anything the caller sees: attributes, `meta.role`/`meta.can`, includes) and
 * `Cache-Control: private, no-cache` unless the handler set a `Cache-Control`; when the
 * request's `If-None-Match` matches it by weak comparison (RFC 9110 § 13.1.2; `*` matches), the
 * answer becomes 304 with no body and the same `ETag` and `Cache-Control` (§ 15.4.5). Errors (404, 403, 400) never get a tag
 * and are never turned into 304: preconditions are evaluated only where the answer would
 * otherwise be 2xx (§ 13.2.2). Other methods and statuses pass through untouched.
 *
 * Opt-in per route with {@link WithETag}; lists do not carry it. Fastify only.
 */
@Injectable()
export class ETagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (request.method !== 'GET' && request.method !== 'HEAD') return next.handle();
    return next.handle().pipe(
      map((body: unknown) => {
        if (reply.statusCode !== 200 || body === undefined || body === null) return body;
        if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
        const json = JSON.stringify(body);
        const etag = weakETag(json);
        // The body is per caller (meta.role/can): no shared cache may keep it, and a private
        // one must revalidate (the same headers as the wallet's GET /wallets/{addressHash}).
        // A handler may have chosen stricter caching (e.g. `no-store` for secrets): kept.
        void reply.header('etag', etag);
        if (!reply.hasHeader('cache-control'))
          void reply.header('cache-control', 'private, no-cache');
        if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) {
          void reply.status(304);
          return undefined;
        }
        // The JSON already made for the tag is what Fastify would send (JSON.stringify, no
        // response schema): send it as is instead of serializing the body a second time.
        void reply.header('content-type', 'application/json; charset=utf-8');
        return json;
      }),
    );
  }
}

/** `@WithETag()` on a single-resource GET handler: see {@link ETagInterceptor}. */
export const WithETag = (): MethodDecorator & ClassDecorator => UseInterceptors(ETagInterceptor);
