import {
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';

/**
 * Marks an answer as never to be stored by any cache, the client's own included:
 * `Cache-Control: no-store` and `Pragma: no-cache`, what RFC 6749 § 5.1 asks of every answer
 * carrying a token (docs/operations.md § Response headers).
 */
export function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/** Sets {@link noStore} before the handler runs, so its errors carry the headers too. */
@Injectable()
export class NoStoreInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    noStore(context.switchToHttp().getResponse<FastifyReply>());
    return next.handle();
  }
}

/**
 * A route whose answers carry credentials — access and refresh tokens, the session envelope,
 * two-factor secrets and challenge tokens, secrets shown once (Sentinel Pass keys, project key
 * pairs): `Cache-Control: no-store`, `Pragma: no-cache` on every answer of it, errors included
 * (a two-factor challenge is a 403 carrying a token). RFC 6749 § 5.1.
 */
export const NoStore = (): MethodDecorator & ClassDecorator => UseInterceptors(NoStoreInterceptor);
