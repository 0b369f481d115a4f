import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CacheRebuilder, liveRevocations, readForRebuild, RevocationStore } from '@wp/security';
import { TxHost } from '@wp/persistence';
import { ApplicationsService } from './applications.service.js';

/**
 * What auth restores when the shared stores have lost its part (docs/architecture.md § Redis is a
 * cache): first the Api-Key registry (every active client application), so keys work again
 * at once, then its deny-list entries — logged-out access tokens, ended sessions and refresh token
 * families, agent epochs it ended — from its `revocation` table, read after the commands that
 * wrote to Redis have committed (`readForRebuild`). Runs at boot, after Redis reconnects and when
 * a reader asks (`CacheRebuilder`); in embedded mode never.
 */
@Injectable()
export class AuthStoreRebuild implements OnModuleInit {
  constructor(
    private readonly rebuilder: CacheRebuilder,
    private readonly txHost: TxHost,
    private readonly applications: ApplicationsService,
    private readonly revocations: RevocationStore,
  ) {}

  onModuleInit(): void {
    this.rebuilder.register('auth', () => this.rebuild());
  }

  async rebuild(): Promise<void> {
    await this.applications.syncRegistry();
    const entries = await readForRebuild(this.txHost, () => liveRevocations(this.txHost));
    await this.revocations.restore('auth', entries);
  }
}
