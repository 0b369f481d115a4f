import type { Readable } from 'node:stream';
import { errorDocument } from '@wp/http';
import type { FastifyReply } from 'fastify';
import { ReplicaPool } from './replica-pool.js';
import type { UpstreamService } from './routes.js';
import {
  shouldRetryUpstream,
  upstreamFailureStatus,
  upstreamRetryDelay,
  UPSTREAM_UNAVAILABLE_RETRY_AFTER_SECONDS,
} from './upstream-failures.js';

/** reply-from's `retryDelay` argument (@fastify/reply-from README, "retryDelay"). */
interface RetryContext {
  err?: unknown;
  req: { method: string; headers: Record<string, unknown> };
  res?: { statusCode: number; headers: Record<string, unknown>; stream: Readable };
  attempt: number;
}

/** What one proxy route needs to reach a service and to answer for it when it cannot. */
export interface UpstreamAnswers {
  /** `upstream` of @fastify/http-proxy: the service's (first) base URL. */
  base: string;
  /** `undici`: a pool over the replicas when there are several ({@link ReplicaPool}). */
  dispatcher: { undici?: ReplicaPool };
  retryDelay: (context: RetryContext) => number | null;
  onError: (reply: FastifyReply, failure: { error: unknown }) => void;
  /** Closes the replica pool's connections (the gateway closing). */
  close: () => Promise<void>;
}

/**
 * How the gateway reaches one service (docs/architecture.md § Upstream failures at the gateway):
 * over one base URL, or over its replicas in turn ({@link ReplicaPool}); a request that
 * certainly did not run is sent again, to the next replica ({@link shouldRetryUpstream}); what
 * still fails is answered in JSON:API — 503 with
 * `Retry-After` when the service cannot be reached, 504 when it did not answer in time, 502
 * when its answer was not HTTP.
 */
export function upstreamAnswers(service: UpstreamService, urls: string[]): UpstreamAnswers {
  const dispatcher = urls.length > 1 ? { undici: new ReplicaPool(urls, { connections: 128 }) } : {};
  return {
    base: urls[0],
    dispatcher,
    close: async () => {
      await dispatcher.undici?.close();
    },
    retryDelay: ({ err, req, res, attempt }) => {
      const again = shouldRetryUpstream({
        method: req.method,
        headers: req.headers,
        error: err,
        response: res,
        retries: attempt,
      });
      if (!again) return null;
      res?.stream.resume(); // the draining replica's 503 body: read and dropped
      return upstreamRetryDelay(attempt);
    },
    onError: (reply, { error }) => {
      const status = upstreamFailureStatus(error);
      const detail =
        status === 503
          ? `The ${service} service cannot be reached right now; retry shortly.`
          : status === 504
            ? `The ${service} service did not answer in time.`
            : `The ${service} service answered with something that is not valid HTTP.`;
      if (status === 503) {
        void reply.header('retry-after', String(UPSTREAM_UNAVAILABLE_RETRY_AFTER_SECONDS));
      }
      void reply
        .status(status)
        .send(errorDocument(status, detail, status === 503 ? 'UPSTREAM_UNAVAILABLE' : undefined));
    },
  };
}
