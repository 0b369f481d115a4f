import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { METADATA_ADDRESSES, type OutboundPolicy } from './outbound-http.js';

/** Longest endpoint URL accepted, characters. */
export const MAX_URL_LENGTH = 2000;

export interface UrlRules extends OutboundPolicy {
  /** `http://` accepted besides `https://` (development and tests). */
  allowHttp: boolean;
}

/** Resolves a host name to its addresses (`dns.lookup`, all families); tests pass their own. */
export type Resolve = (host: string) => Promise<string[]>;

/** Longest wait for DNS when an endpoint is created or changed, ms. */
const RESOLVE_TIMEOUT_MS = 3000;

const systemResolve: Resolve = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS timeout')), RESOLVE_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Checks an endpoint URL when it is created or changed (docs/org.md § SSRF defence): an absolute
 * `https://` URL (`http://` where allowed) without credentials, whose host resolves, and none of
 * whose addresses is private, loopback, link-local, unspecified, reserved or a cloud metadata
 * address unless the rules allow it. The connection-time check of the delivery client is the
 * one that counts (a name may resolve elsewhere later); this one gives the caller a clear 4xx
 * up front.
 * @returns null when acceptable, else why not (one sentence for the error's `detail`)
 */
export async function urlProblem(
  raw: string,
  rules: UrlRules,
  resolve: Resolve = systemResolve,
): Promise<string | null> {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
    return rules.allowHttp ? 'must be an http or https URL' : 'must be an https URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return `host ${host} does not resolve`;
    }
    if (addresses.length === 0) return `host ${host} does not resolve`;
  }
  const refused = addresses.find((address) => !addressAllowed(address, rules));
  return refused === undefined
    ? null
    : `resolves to ${refused}, a private or reserved address that webhooks may not reach`;
}

/**
 * True when a webhook may connect to the address: a public unicast address, or one the rules
 * allow (an exact address or CIDR of `allowedPrivateAddresses`, or any private one with
 * `allowPrivateNetworks`); metadata addresses never.
 */
export function addressAllowed(address: string, rules: OutboundPolicy): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  const normal = parsed.toString();
  if (METADATA_ADDRESSES.some((m) => ipaddr.process(m).toString() === normal)) return false;
  if (parsed.range() === 'unicast') return true;
  if (rules.allowPrivateNetworks) return true;
  return rules.allowedPrivateAddresses.some((entry) => matches(parsed, entry));
}

function matches(address: ipaddr.IPv4 | ipaddr.IPv6, entry: string): boolean {
  try {
    if (entry.includes('/')) {
      const [range, bits] = ipaddr.parseCIDR(entry);
      return address.kind() === range.kind() && address.match(range, bits);
    }
    return ipaddr.process(entry).toString() === address.toString();
  } catch {
    return false;
  }
}
