import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { DirectoryRepository } from './directory.repository.js';

/**
 * Org's own event of the user directory: the two-factor state from
 * `auth.user.two_factor_changed`, applied only when newer. The `auth.user.*` snapshots are
 * @wp/user-directory's `UserDirectoryHandlers`, as in wallet.
 */
@Injectable()
export class DirectoryTwoFactorHandlers implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly directory: DirectoryRepository,
  ) {}

  onModuleInit(): void {
    this.bus.on('auth.user.two_factor_changed', 'directory_two_factor', (event) =>
      this.directory.applyTwoFactor(event.payload),
    );
  }
}
