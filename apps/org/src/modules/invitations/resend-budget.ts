/** Outcome of asking an invitation's resend budget for a slot. */
export type ResendSlot =
  | { granted: true; /** The send times to store, oldest first, this one last. */ resentAt: Date[] }
  | {
      granted: false;
      /** Whole seconds until the oldest counted resend leaves the window. */ retryAfterSeconds: number;
    };

/**
 * The resend budget of one invitation (docs/org.md § Invitations): at most `limit` resends in any
 * sliding window of `windowMs`. `resentAt` holds the times of earlier resends (the invitation
 * row's `resent_at`); the caller holds that row's lock, so replicas and parallel requests take
 * slots one at a time. Granted: the times still in the window plus `now`, at most `limit` of
 * them. Refused: how long until a slot frees (≥ 1 s), for `Retry-After`.
 */
export function takeResendSlot(
  resentAt: readonly Date[],
  now: Date,
  limit: number,
  windowMs: number,
): ResendSlot {
  const since = now.getTime() - windowMs;
  const recent = resentAt
    .filter((at) => at.getTime() > since)
    .sort((a, b) => a.getTime() - b.getTime());
  if (recent.length >= limit) {
    const frees = recent[recent.length - limit].getTime() + windowMs;
    return {
      granted: false,
      retryAfterSeconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)),
    };
  }
  return { granted: true, resentAt: [...recent, now].slice(-limit) };
}
