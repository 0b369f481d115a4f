import { AsyncLocalStorage } from 'node:async_hooks';
import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { requestMetaOf, type RequestMeta } from '@wp/http';
import type { Observable } from 'rxjs';

const storage = new AsyncLocalStorage<RequestMeta>();
const NONE: RequestMeta = { requestId: null, clientAddress: null, userAgent: null };

/**
 * Makes the request's id, client address and user agent available to the code a request runs
 * (`currentRequestMeta()`), so a service can record who acted from where in the audit log
 * without every handler passing them down. Nest runs the handler inside the context the
 * interceptor opens (`AsyncResource.bind` in its interceptor chain).
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const meta = requestMetaOf(context.switchToHttp().getRequest());
    return storage.run(meta, () => next.handle());
  }
}

/** The current request's {@link RequestMeta}; all null outside a request (event handlers). */
export function currentRequestMeta(): RequestMeta {
  return storage.getStore() ?? NONE;
}
