import { randomUUID } from 'node:crypto';
import { dropDatabase, ensureDatabase, runMigrations } from '@wp/persistence';
import { TEST_SERVERS, uniqueId } from '@wp/testing';
import type { DataSource } from 'typeorm';
import { authDataSource } from '../../src/database/data-source.js';

/**
 * The username-key migration on a database that already holds look-alike accounts
 * (docs/auth.md § Usernames; docs/operations.md § Look-alike accounts set aside): every account
 * gets its key; of accounts whose keys collide the active, then oldest, one keeps it and the
 * others are set aside — disabled, key NULL, sessions revoked, `auth.user.updated` enqueued,
 * listed in `username_conflict` — and the unique index holds afterwards.
 */
describe('username key migration with existing look-alike accounts', () => {
  const url = `${TEST_SERVERS.postgres}/wp_auth_${uniqueId('ukey')}`;
  let db: DataSource;

  const insertUser = async (
    email: string | null,
    phone: string | null,
    status: string,
    createdAt: string,
  ): Promise<string> => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO app_user (id, email, phone, password_hash, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'x', $4, $5, $5)`,
      [id, email, phone, status, createdAt],
    );
    return id;
  };

  beforeAll(async () => {
    await ensureDatabase(url);
    db = authDataSource(url);
    await db.initialize();
    await runMigrations(db);
    // Back to before the username key: undo it and every migration that came after it.
    const keyAt = db.migrations.findIndex((m) =>
      (m.name ?? m.constructor.name).startsWith('UsernameKey'),
    );
    expect(keyAt).toBeGreaterThanOrEqual(0);
    for (let i = db.migrations.length; i > keyAt; i--) {
      await db.undoLastMigration({ transaction: 'each' });
    }
  });
  afterAll(async () => {
    await db?.destroy();
    await dropDatabase(url);
  });

  it('keys every account, keeps one per key and sets the look-alikes aside', async () => {
    const ada = await insertUser('ada@example.com', null, 'active', '2026-01-01T00:00:00Z');
    const fullwidth = await insertUser(
      '\uff41da@example.com',
      null,
      'active',
      '2026-02-01T00:00:00Z',
    );
    const hidden = await insertUser(
      'ada\u200b@example.com',
      null,
      'pending_activation',
      '2025-12-01T00:00:00Z',
    );
    const nfdOld = await insertUser(
      'jose\u0301@example.com',
      null,
      'pending_activation',
      '2026-01-01T00:00:00Z',
    );
    const nfcNew = await insertUser(
      'jos\u00e9@example.com',
      null,
      'active',
      '2026-03-01T00:00:00Z',
    );
    const phone = await insertUser(null, '+14155550100', 'active', '2026-01-01T00:00:00Z');
    const legacy = await insertUser('Odd@Exa_mple.com', null, 'active', '2026-01-01T00:00:00Z');
    const family = randomUUID();
    await db.query(
      `INSERT INTO refresh_token_family (id, user_id, app_id, current_token_hash, expires_at)
       VALUES ($1, $2, $3, $4, now() + interval '1 day')`,
      [family, fullwidth, randomUUID(), 'a'.repeat(64)],
    );

    await runMigrations(db);

    const rows: { id: string; username_key: string | null; status: string }[] = await db.query(
      'SELECT id, username_key, status FROM app_user',
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ada)).toMatchObject({ username_key: 'ada@example.com', status: 'active' });
    // Active before pending, then the oldest: ada keeps the key, the other two are set aside.
    expect(byId.get(fullwidth)).toMatchObject({ username_key: null, status: 'disabled' });
    expect(byId.get(hidden)).toMatchObject({ username_key: null, status: 'disabled' });
    expect(byId.get(nfcNew)).toMatchObject({ username_key: 'jos\u00e9@example.com' });
    expect(byId.get(nfdOld)).toMatchObject({ username_key: null, status: 'disabled' });
    expect(byId.get(phone)).toMatchObject({ username_key: '+14155550100', status: 'active' });
    expect(byId.get(legacy)).toMatchObject({ username_key: 'odd@exa_mple.com', status: 'active' });

    const conflicts: { user_id: string; kept_user_id: string; previous_status: string }[] =
      await db.query('SELECT user_id, kept_user_id, previous_status FROM username_conflict');
    expect(conflicts).toEqual(
      expect.arrayContaining([
        { user_id: fullwidth, kept_user_id: ada, previous_status: 'active' },
        { user_id: hidden, kept_user_id: ada, previous_status: 'pending_activation' },
        { user_id: nfdOld, kept_user_id: nfcNew, previous_status: 'pending_activation' },
      ]),
    );
    expect(conflicts).toHaveLength(3);

    const [revoked] = await db.query(
      'SELECT revoked_at, revoked_reason FROM refresh_token_family WHERE id = $1',
      [family],
    );
    expect(revoked.revoked_reason).toBe('username_conflict');
    expect(revoked.revoked_at).not.toBeNull();

    const events: { payload: { userId: string; status: string } }[] = await db.query(
      `SELECT payload FROM outbox_message WHERE subject = 'auth.user.updated'`,
    );
    expect(events.map((e) => e.payload.userId).sort()).toEqual([fullwidth, hidden, nfdOld].sort());
    expect(events.every((e) => e.payload.status === 'disabled')).toBe(true);

    // The unique index now refuses a second account under a taken key.
    await expect(
      db.query(
        `INSERT INTO app_user (id, email, password_hash, status, username_key)
         VALUES ($1, 'ADA@example.com', 'x', 'active', 'ada@example.com')`,
        [randomUUID()],
      ),
    ).rejects.toThrow(/app_user_username_key/);
    // …and a previous release's insert without a key (during a rolling update) fails.
    await expect(
      insertUser('late@example.com', null, 'active', '2026-04-01T00:00:00Z'),
    ).rejects.toThrow(/app_user_username_key_present/);
  });
});
