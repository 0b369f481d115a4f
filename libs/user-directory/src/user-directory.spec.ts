import type { EventEnvelope, EventSubject, UserSnapshot } from '@wp/contracts';
import type { EventBus, EventHandler } from '@wp/messaging';
import type { TxHost } from '@wp/persistence';
import type { EntityManager } from 'typeorm';
import { UserDirectory, type DirectoryTableLayout } from './user-directory.js';
import { UserDirectoryHandlers } from './user-directory.handlers.js';

const USER: UserSnapshot = {
  userId: '3f8b1c2e-8a4d-4e1f-9c3b-2d7e6f5a4b3c',
  email: 'ada@example.com',
  phone: null,
  firstName: 'Ada',
  lastName: 'Lovelace',
  status: 'active',
};
const AT = '2026-11-28T12:00:00.000Z';

/** A directory of the given layout, as org's and wallet's repositories are. */
class Directory extends UserDirectory {
  constructor(layout: DirectoryTableLayout) {
    super(layout);
  }
}

/** Records the statements a transaction's manager is given. */
function recordingManager() {
  const queries: { text: string; values: unknown[] }[] = [];
  const manager = {
    query: (text: string, values: unknown[]) => {
      queries.push({ text, values });
      return Promise.resolve([{ applied: 1 }]);
    },
  } as unknown as EntityManager;
  return { manager, queries };
}

describe('UserDirectory.apply (docs/architecture.md § Consistency)', () => {
  it("writes org's layout: key id, and updated_at stamped", async () => {
    const { manager, queries } = recordingManager();
    await new Directory({ idColumn: 'id', stampsUpdatedAt: true }).apply(USER, AT, manager);
    const [{ text, values }] = queries;
    expect(text).toContain(
      'INSERT INTO "directory_user" ("id", "email", "phone", "first_name", "last_name", "status", "occurred_at", "updated_at")',
    );
    expect(text).toContain('ON CONFLICT ("id")');
    expect(text).toContain('"directory_user"."occurred_at" <= EXCLUDED."occurred_at"');
    expect(values.slice(0, 7)).toEqual([
      USER.userId,
      USER.email,
      null,
      'Ada',
      'Lovelace',
      'active',
      AT,
    ]);
    expect(values[7]).toBeInstanceOf(Date);
  });

  it("writes wallet's layout: key user_id, no updated_at", async () => {
    const { manager, queries } = recordingManager();
    await new Directory({ idColumn: 'user_id', stampsUpdatedAt: false }).apply(USER, AT, manager);
    const [{ text, values }] = queries;
    expect(text).toContain(
      'INSERT INTO "directory_user" ("user_id", "email", "phone", "first_name", "last_name", "status", "occurred_at")',
    );
    expect(text).toContain('ON CONFLICT ("user_id")');
    expect(text).not.toContain('updated_at');
    expect(values).toEqual([USER.userId, USER.email, null, 'Ada', 'Lovelace', 'active', AT]);
  });
});

describe('UserDirectoryHandlers', () => {
  /** The consumers registered on a bus of our own, by subject. */
  function subscribe(directory: UserDirectory, txHost = {} as TxHost) {
    const consumers = new Map<string, { name: string; handler: EventHandler<EventSubject> }>();
    const bus = {
      on: (subject: EventSubject, name: string, handler: EventHandler<EventSubject>) => {
        consumers.set(subject, { name, handler });
      },
    } as unknown as EventBus;
    new UserDirectoryHandlers(bus, directory, txHost).onModuleInit();
    return consumers;
  }

  it('keeps the durable consumer names of every snapshot subject', () => {
    const consumers = subscribe(new Directory({ idColumn: 'id', stampsUpdatedAt: false }));
    expect([...consumers].map(([subject, { name }]) => [subject, name])).toEqual([
      ['auth.user.registered', 'directory_registered'],
      ['auth.user.activated', 'directory_activated'],
      ['auth.user.updated', 'directory_updated'],
    ]);
  });

  it("applies the event's payload at the event's time in the consumer's transaction", async () => {
    const directory = new Directory({ idColumn: 'user_id', stampsUpdatedAt: false });
    const applied: unknown[][] = [];
    directory.apply = (...args) => {
      applied.push(args);
      return Promise.resolve();
    };
    const { manager } = recordingManager();
    const txHost = { isTransactionActive: () => true, tx: manager } as unknown as TxHost;
    const event = {
      id: 'e1',
      occurredAt: AT,
      payload: USER,
    } as unknown as EventEnvelope<EventSubject>;
    await subscribe(directory, txHost).get('auth.user.activated')!.handler(event);
    expect(applied).toEqual([[USER, AT, manager]]);
  });
});
