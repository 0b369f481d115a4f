import { z } from 'zod';
import { env } from '@wp/config';

/** Svix's schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/org.md § Webhooks). */
const SVIX_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/**
 * Settings of webhook delivery (docs/org.md § Webhooks; README § Configuration). Durations in
 * milliseconds unless the name says otherwise.
 */
export const webhookConfigFields = {
  /**
   * Pause before each attempt, comma separated: the first entry is the first attempt (0 =
   * immediately), one entry per attempt; after the last, the delivery is `failed`.
   */
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return SVIX_SCHEDULE_MS;
      const list = v.split(',').map((s) => Number(s.trim()));
      if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 0)) {
        ctx.addIssue({
          code: 'custom',
          message: 'expected non-negative integers, comma separated',
        });
        return z.NEVER;
      }
      return list;
    }),
  /** Random spread of every retry pause, ± this fraction (0.1 = ±10 %). */
  WEBHOOK_RETRY_JITTER: z.coerce
    .number({ message: 'expected a number 0-1' })
    .min(0, 'expected a number 0-1')
    .max(1, 'expected a number 0-1')
    .default(0.1),
  /** Longest `Retry-After` (429, 503) honoured, seconds; longer ones are cut to this. */
  WEBHOOK_RETRY_AFTER_MAX_SECONDS: env.int(3600, 0),
  /** Bound of one attempt: connect, send, answer, ms. */
  WEBHOOK_TIMEOUT_MS: env.int(10_000, 100),
  /**
   * How long a claimed delivery belongs to its process: a process killed mid-attempt loses its
   * claims after this, ms (at least the timeout plus a second).
   */
  WEBHOOK_LEASE_MS: env.int(60_000, 1000),
  /** How often each process looks for due deliveries besides being woken, ms. */
  WEBHOOK_POLL_INTERVAL_MS: env.int(1000, 10),
  /** Attempts in flight at once per process. */
  WEBHOOK_MAX_IN_FLIGHT: env.int(64, 1),
  /** Attempts in flight at once per endpoint over every org process (one process at a time leases an endpoint's deliveries). */
  WEBHOOK_ENDPOINT_CONCURRENCY: env.int(4, 1),
  /**
   * How far ahead a process leases due deliveries into its own queues, as a multiple of the two
   * concurrencies: up to this × `WEBHOOK_ENDPOINT_CONCURRENCY` per endpoint and this ×
   * `WEBHOOK_MAX_IN_FLIGHT` in all (1 = only what can start at once).
   */
  WEBHOOK_LEASE_AHEAD: env.int(64, 1),
  /** An endpoint failing without a success for longer than this is disabled, seconds (5 days). */
  WEBHOOK_DISABLE_AFTER_SECONDS: env.int(432_000, 1),
  /** How long the previous secret keeps signing after a rotation, seconds (0 = not at all). */
  WEBHOOK_SECRET_OVERLAP_SECONDS: env.int(86_400, 0),
  /** Messages whose deliveries all ended are deleted after this many days. */
  WEBHOOK_RETENTION_DAYS: env.int(30, 1),
  /**
   * Private, loopback, link-local addresses or CIDR ranges endpoints may reach anyway
   * (docs/org.md § SSRF defence), comma separated, e.g. `127.0.0.1` in tests. Empty by default.
   */
  WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: env.list([]),
  /** Development only: every private address allowed (metadata addresses stay refused). */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: env.bool(false),
  /** Plain `http://` endpoint URLs; always allowed outside `NODE_ENV=production`. */
  WEBHOOK_ALLOW_HTTP: env.bool(false),
};
