import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { CustomFetch } from 'openid-client';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';

/**
 * Whether a provider of an organization's connection may be reached at `address`: a public
 * unicast address, or one of `allowed` (exact addresses). Private, loopback, link-local,
 * carrier-grade NAT (a cloud metadata address among them), unspecified and reserved ranges are
 * refused.
 */
export function providerAddressAllowed(address: string, allowed: ReadonlySet<string>): boolean {
  try {
    const ip = ipaddr.process(address);
    return ip.range() === 'unicast' || allowed.has(ip.toString());
  } catch {
    return false;
  }
}

/**
 * The `customFetch` of an organization's connection (docs/auth.md § Organization single
 * sign-on, "Outbound requests"): an OWNER, a tenant, chose its issuer, so every request to it
 * (discovery, JWKS, token endpoint) connects only to addresses {@link providerAddressAllowed}
 * lets through. The check runs on the addresses the connection really uses (undici's `lookup`,
 * so a name that resolves elsewhere later is checked again), and on IP literals before any
 * connection. `close` ends its kept-alive connections (shutdown).
 */
export function guardedProviderFetch(
  allowedAddresses: readonly string[],
): CustomFetch & { close(): Promise<void> } {
  const allowed = new Set(
    allowedAddresses.flatMap((a) => (ipaddr.isValid(a) ? [ipaddr.process(a).toString()] : [])),
  );
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => !providerAddressAllowed(a.address, allowed));
      if (refused || addresses.length === 0) {
        const refusal = new Error(
          `${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`,
        ) as NodeJS.ErrnoException;
        refusal.code = 'EADDRNOTALLOWED';
        return callback(refusal, '', 0);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first.address, first.family);
    });
  };
  const dispatcher = new Agent({ connect: { lookup: guardedLookup } });
  const fetch: CustomFetch = async (url, options) => {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && !providerAddressAllowed(host, allowed)) {
      throw new Error(`${host} is not a public address`);
    }
    // undici's own Response: openid-client accepts it (it compares by `Symbol.toStringTag`).
    return undiciFetch(url, { ...(options as unknown as UndiciRequestInit), dispatcher });
  };
  return Object.assign(fetch, { close: () => dispatcher.close() });
}
