import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { DirectoryRepository } from './directory.repository.js';

/**
 * Keeps the user directory read model in line with auth: `auth.user.*` snapshots and the
 * two-factor state from `auth.user.two_factor_changed`, each applied only when newer.
 */
@Injectable()
export class DirectoryHandlers implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly directory: DirectoryRepository,
  ) {}

  onModuleInit(): void {
    for (const subject of [
      'auth.user.registered',
      'auth.user.activated',
      'auth.user.updated',
    ] as const) {
      this.bus.on(subject, `directory_${subject.split('.')[2]}`, (event, manager) =>
        this.directory.apply(event.payload, event.occurredAt, manager),
      );
    }
    this.bus.on('auth.user.two_factor_changed', 'directory_two_factor', (event, manager) =>
      this.directory.applyTwoFactor(event.payload, manager),
    );
  }
}
