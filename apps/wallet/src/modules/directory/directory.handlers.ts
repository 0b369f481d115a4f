import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { DirectoryRepository } from './directory.repository.js';

/**
 * Keeps the user directory read model in line with auth (`auth.user.*`,
 * docs/architecture.md § Data ownership and events).
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
  }
}
