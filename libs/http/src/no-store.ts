import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Key of the Fastify route config (`request.routeOptions.config`) that {@link NoStore} sets. */
const NO_STORE = 'noStore';

/**
 * Marks an answer as never to be stored by any cache, the client's own included:
 * `Cache-Control: no-store` and `Pragma: no-cache`, what RFC 6749 § 5.1 asks of every answer
 * carrying a token (docs/operations.md § Response headers).
 */
export function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/**
 * Whether the request's route is marked {@link NoStore}: the `onRequest` hook of
 * `configureHttpApp` then sets {@link noStore} before anything else runs, so refusals of
 * guards, pipes and handlers carry the headers too.
 */
export function routeIsNoStore(request: FastifyRequest): boolean {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  return config?.[NO_STORE] === true;
}

/**
 * A route whose answers carry credentials — access and refresh tokens, the session envelope,
 * two-factor secrets and challenge tokens, secrets shown once (Sentinel Pass keys, project key
 * pairs): `Cache-Control: no-store`, `Pragma: no-cache` on every answer of it, errors included
 * (a two-factor challenge is a 403 carrying a token). RFC 6749 § 5.1.
 *
 * A Fastify route config flag read by one `onRequest` hook rather than a Nest interceptor: a
 * route without interceptors skips Nest's RxJS pipeline (docs/auth.md § Performance). It is
 * the route's only `@RouteConfig` (Nest keeps one per handler).
 */
export const NoStore = (): MethodDecorator => RouteConfig({ [NO_STORE]: true });
