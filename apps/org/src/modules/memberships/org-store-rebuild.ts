import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  CacheRebuilder,
  liveRevocations,
  purgeRevocations,
  readForRebuild,
  RevocationStore,
  TenantVersionStore,
} from '@wp/security';
import { TxHost } from '@wp/persistence';
import { DataSource } from 'typeorm';
import { MembershipVersionRepository } from './membership-version.repository.js';

/**
 * What org restores when the shared stores have lost its part (docs/architecture.md § Redis is a
 * cache): its deny-list entries — ended Sentinel Pass credential epochs and withdrawn project key
 * pairs, recorded in its `revocation` table — and every organization's required permission
 * version (`organization_permission_version`), both read after the commands that wrote to Redis
 * have committed (`readForRebuild`). Runs at boot, after Redis reconnects and when a reader
 * asks (`CacheRebuilder`); in embedded mode never.
 */
@Injectable()
export class OrgStoreRebuild implements OnModuleInit {
  constructor(
    private readonly rebuilder: CacheRebuilder,
    private readonly dataSource: DataSource,
    private readonly txHost: TxHost,
    private readonly versions: MembershipVersionRepository,
    private readonly revocations: RevocationStore,
    private readonly tenantVersions: TenantVersionStore,
  ) {}

  onModuleInit(): void {
    this.rebuilder.register('org', () => this.rebuild());
  }

  async rebuild(): Promise<void> {
    await purgeRevocations(this.dataSource);
    const { entries, versions } = await readForRebuild(this.txHost, async () => ({
      entries: await liveRevocations(this.txHost),
      versions: await this.versions.allOrganizations(),
    }));
    await this.revocations.restore('org', entries);
    await this.tenantVersions.restore(
      'org',
      versions.map((v) => ({ tenantId: String(v.organizationId), version: v.version })),
    );
  }
}
