import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { map, type Observable } from 'rxjs';

/** A strong entity tag of a JSON body: 27 characters of base64url SHA-256, quoted. */
export function jsonEtag(body: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110 § 13.1.2 weak comparison of an `If-None-Match` list against one tag. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

/**
 * ARCHITECTURE § 4 "Caching": GET responses of single resources carry an `ETag` (and
 * `Cache-Control: private, no-cache`: always revalidate, never a shared cache); an
 * `If-None-Match` naming the current tag answers 304 without a body. The server keeps no
 * response cache, so the tag is computed from the fresh answer. Use with
 * `@UseInterceptors(ETagInterceptor)` on GET handlers that return a JSON body.
 */
@Injectable()
export class ETagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map((body: unknown) => {
        if (body === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
          return body;
        }
        const etag = jsonEtag(body);
        void reply.header('etag', etag).header('cache-control', 'private, no-cache');
        const header = request.headers['if-none-match'];
        if (!ifNoneMatchHits(Array.isArray(header) ? header.join(',') : header, etag)) return body;
        void reply.code(304);
        return undefined;
      }),
    );
  }
}
