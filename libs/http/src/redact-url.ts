/**
 * Query parameters whose values are credentials (docs/operations.md § Logs and traces): API
 * keys, access, refresh and id tokens, passwords, secrets, one-time codes, signatures. The
 * platform reads none of them from a URL (`Api-Key`, `Authorization` and `Admin-Access` are
 * headers), but clients send them anyway, and whatever a URL carries reaches request logs and
 * trace attributes. Names are compared without case and without `-`/`_`
 * (`Api-Key`, `api_key`, `APIKEY`).
 */
const CREDENTIAL_NAMES = new Set([
  'apikey',
  'key',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'authtoken',
  'bearer',
  'jwt',
  'auth',
  'authorization',
  'adminaccess',
  'password',
  'passwd',
  'secret',
  'clientsecret',
  'secretkey',
  'code',
  'otp',
  'session',
  'sessionid',
  'sig',
  'signature',
  'resettoken',
  'challengetoken',
]);

/** What replaces a credential's value. */
export const REDACTED = '[redacted]';

/** Whether a query parameter name (raw, possibly percent-encoded) names a credential. */
export function isCredentialParameter(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // a name that does not decode is compared as sent
  }
  return CREDENTIAL_NAMES.has(decoded.toLowerCase().replace(/[-_\s.]/g, ''));
}

/**
 * The URL (absolute, or a path with its query as in a request line) with the value of every
 * credential-like query parameter replaced by `[redacted]`; the rest is kept exactly as sent.
 * Used wherever a URL is logged or traced: request log lines, OpenTelemetry's `url.full`,
 * `url.query` and `http.target`, and the 404 text of an unknown route.
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const hash = url.indexOf('#', mark);
  const end = hash < 0 ? url.length : hash;
  return `${url.slice(0, mark + 1)}${redactQuery(url.slice(mark + 1, end))}${url.slice(end)}`;
}

/** A query string (without `?`) with credential values replaced. */
export function redactQuery(query: string): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && isCredentialParameter(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * Nest's text for an unknown route (`Cannot GET /path?query`) without its query string: the
 * answer (and any log of it) names the route, not what the client put in the URL.
 */
export function withoutQuery(message: string): string {
  return /^Cannot [A-Z]+ /.test(message) ? message.replace(/\?.*$/s, '') : message;
}
