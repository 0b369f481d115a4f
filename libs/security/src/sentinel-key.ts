import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The hash of a Sentinel Pass key as it travels in `org.sentinel_pass.changed.keyHash` and as
 * auth stores it: SHA-256 of the key's UTF-8 bytes, lowercase hex (64 characters). Keys are
 * high-entropy random strings, so a fast unsalted hash is enough (no password hashing). The org
 * service must hash with this very function when it creates or rotates a key.
 */
export function hashSentinelKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time check of a presented key against a stored {@link hashSentinelKey} hash. */
export function sentinelKeyMatches(key: string, storedHash: string | null): boolean {
  const presented = Buffer.from(hashSentinelKey(key), 'hex');
  // Compare against a same-length dummy when nothing is stored, so timing does not tell.
  const stored = /^[0-9a-f]{64}$/.test(storedHash ?? '')
    ? Buffer.from(storedHash!, 'hex')
    : Buffer.alloc(32);
  return timingSafeEqual(presented, stored) && storedHash !== null;
}

/**
 * Whether a request's `Referer` or `Origin` (a URL, or null when the request sent neither)
 * satisfies a Sentinel Pass's `allowedReferers`. An empty list allows every request, with or
 * without the headers. Pattern syntax (case-insensitive):
 *
 * - `example.com`: that host exactly, any scheme and port;
 * - `*.example.com`: any subdomain of example.com (not example.com itself);
 * - `https://example.com`: with a scheme, the scheme must match too;
 * - an optional `:port` after the host must match the URL's port;
 * - an optional path (`example.com/app`) must be a prefix of the URL's path.
 *
 * A non-empty list and no (or an unparsable) header: refused.
 */
export function refererAllowed(url: string | null, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  if (url === null) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return patterns.some((pattern) => matchesPattern(parsed, pattern));
}

function matchesPattern(url: URL, raw: string): boolean {
  let pattern = raw.trim().toLowerCase();
  let scheme: string | null = null;
  const schemeAt = pattern.indexOf('://');
  if (schemeAt >= 0) {
    scheme = pattern.slice(0, schemeAt);
    pattern = pattern.slice(schemeAt + 3);
  }
  const slash = pattern.indexOf('/');
  const path = slash >= 0 ? pattern.slice(slash) : null;
  const hostPort = slash >= 0 ? pattern.slice(0, slash) : pattern;
  const [host, port] = hostPort.split(':') as [string, string | undefined];
  if (scheme !== null && `${scheme}:` !== url.protocol) return false;
  if (port !== undefined && port !== url.port) return false;
  const urlHost = url.hostname.toLowerCase();
  if (host.startsWith('*.')) {
    const suffix = host.slice(1); // ".example.com"
    if (!urlHost.endsWith(suffix) || urlHost.length === suffix.length) return false;
  } else if (host !== urlHost) {
    return false;
  }
  return path === null || url.pathname.toLowerCase().startsWith(path);
}
