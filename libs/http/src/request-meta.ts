import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** Longest user agent kept (sessions list, audit log); longer ones are cut. */
export const MAX_USER_AGENT = 512;

/**
 * Where a request came from, as recorded in session lists and the audit log: its request id
 * (`X-Request-Id`, docs/decisions.md § Wire format), the client address (Fastify's `request.ip`:
 * with `TRUST_PROXY=true` the `X-Forwarded-For` the gateway sets) and the `User-Agent`.
 */
export interface RequestMeta {
  requestId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
}

interface MetaSource {
  id?: unknown;
  ip?: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** The {@link RequestMeta} of a Fastify request. */
export function requestMetaOf(request: MetaSource): RequestMeta {
  const agent = request.headers['user-agent'];
  return {
    requestId: typeof request.id === 'string' && request.id !== '' ? request.id : null,
    clientAddress: typeof request.ip === 'string' && request.ip !== '' ? request.ip : null,
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, MAX_USER_AGENT) : null,
  };
}

/** `@CurrentRequestMeta() meta: RequestMeta` in a controller. */
export const CurrentRequestMeta = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): RequestMeta =>
    requestMetaOf(ctx.switchToHttp().getRequest<MetaSource>()),
);
