import { promises as dns } from 'node:dns';
import { Inject, Injectable } from '@nestjs/common';
import { ORG_CONFIG, type OrgConfig } from '../../config/org.config.js';

/** Answers that mean "no such record" rather than "the resolver failed". */
const ABSENT = new Set<string>([dns.NOTFOUND, dns.NODATA]);

/**
 * TXT look-ups for domain verification (docs/org.md § Single sign-on for an organization). The
 * servers are `DNS_RESOLVER_SERVERS` (node:dns `Resolver#setServers`; empty: the system's), so
 * tests point it at a DNS server of their own on 127.0.0.1. Tests of the service alone may
 * provide another implementation of this class.
 */
@Injectable()
export class DnsTxtResolver {
  private readonly resolver = new dns.Resolver({ timeout: 3000, tries: 2 });

  constructor(@Inject(ORG_CONFIG) config: Pick<OrgConfig, 'DNS_RESOLVER_SERVERS'>) {
    const servers = config.DNS_RESOLVER_SERVERS.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  /**
   * The TXT strings of `name` (each record's chunks joined).
   * @returns [] when the name or its TXT records do not exist
   * @throws Error when the resolver fails (timeout, refused): the caller answers 503
   */
  async txt(name: string): Promise<string[]> {
    try {
      return (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (e) {
      if (ABSENT.has((e as NodeJS.ErrnoException).code ?? '')) return [];
      throw e;
    }
  }
}
