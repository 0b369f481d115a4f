/**
 * Seconds to wait from a `Retry-After` value (RFC 9110 § 10.2.3): delta-seconds or an HTTP-date
 * (then relative to `now`, never negative). `undefined` when absent or unreadable.
 */
export function retryAfterSeconds(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
