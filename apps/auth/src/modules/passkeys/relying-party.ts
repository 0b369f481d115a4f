import { Inject, Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

/** The WebAuthn relying party a client application's ceremonies run for. */
export interface RelyingParty {
  /** RP id (a registrable domain suffix of the origins, W3C WebAuthn § 5.1.2), e.g. `example.com`. */
  id: string;
  /** Shown by authenticators. */
  name: string;
  /** Exact origins (`scheme://host[:port]`) a ceremony's `clientDataJSON.origin` may be. */
  origins: string[];
}

/**
 * Resolves the relying party of a client application (the request's `Api-Key`): its own
 * `webauthn_rp_id` / `webauthn_origins` (set with `npm run cli -- apps:webauthn`), else the
 * platform's `WEBAUTHN_RP_ID` / `WEBAUTHN_ORIGINS` (docs/auth.md § Passkeys). Read on every
 * ceremony (one indexed row), so a change applies to the next ceremony on every replica.
 */
@Injectable()
export class RelyingParties {
  constructor(
    private readonly txHost: TxHost,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  async of(appId: string): Promise<RelyingParty> {
    const rows = await this.txHost.tx.query<
      { name: string; webauthn_rp_id: string | null; webauthn_origins: string[] | null }[]
    >('SELECT name, webauthn_rp_id, webauthn_origins FROM client_application WHERE id = $1', [
      appId,
    ]);
    const row = rows[0];
    return {
      id: row?.webauthn_rp_id ?? this.config.WEBAUTHN_RP_ID,
      name: this.config.WEBAUTHN_RP_NAME,
      origins: row?.webauthn_origins ?? this.config.WEBAUTHN_ORIGINS,
    };
  }
}

/**
 * Checks an operator's relying party setting: the RP id is a domain name and each origin is a
 * bare `http(s)://host[:port]` whose host is the RP id or under it (W3C WebAuthn § 5.1.2: the RP
 * id must be a registrable domain suffix of, or equal to, the origin's effective domain).
 * @returns the normalized origins, or the reason they are refused
 */
export function checkRelyingParty(
  rpId: string,
  origins: string[],
): { origins: string[] } | { error: string } {
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(rpId) || rpId.length > 253) {
    return { error: `RP_ID ${rpId} is not a domain name (e.g. example.com)` };
  }
  const normalized: string[] = [];
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return { error: `${origin} is not an origin (scheme://host[:port])` };
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
      return { error: `${origin} is not an origin (scheme://host[:port], nothing after it)` };
    }
    if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) {
      return { error: `${origin} is not on ${rpId} or a subdomain of it` };
    }
    normalized.push(url.origin);
  }
  return normalized.length > 0 ? { origins: normalized } : { error: 'no origin given' };
}
