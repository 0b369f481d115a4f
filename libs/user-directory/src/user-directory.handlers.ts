import { Injectable, type OnModuleInit, type Provider, type Type } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { activeTransaction, TxHost } from '@wp/persistence';
import { UserDirectory } from './user-directory.js';

/** The events that carry a whole account snapshot (`UserSnapshot` of @wp/contracts). */
export const USER_SNAPSHOT_SUBJECTS = [
  'auth.user.registered',
  'auth.user.activated',
  'auth.user.updated',
] as const;

/**
 * Keeps a service's user directory in line with auth: one durable consumer per snapshot subject,
 * named `<service>.directory_<registered|activated|updated>` (the names are the consumers'
 * identity at the broker: renaming one would start a new consumer from the stream's beginning).
 */
@Injectable()
export class UserDirectoryHandlers implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly directory: UserDirectory,
    private readonly txHost: TxHost,
  ) {}

  onModuleInit(): void {
    for (const subject of USER_SNAPSHOT_SUBJECTS) {
      // `apply` is a low-level helper that takes its manager: the delivery's transaction.
      this.bus.on(subject, `directory_${subject.split('.')[2]}`, (event) =>
        this.directory.apply(event.payload, event.occurredAt, activeTransaction(this.txHost)),
      );
    }
  }
}

/**
 * The providers of a service's directory module: its repository, the same instance under
 * {@link UserDirectory}, and the snapshot consumers.
 */
export function userDirectoryProviders(repository: Type<UserDirectory>): Provider[] {
  return [repository, { provide: UserDirectory, useExisting: repository }, UserDirectoryHandlers];
}
