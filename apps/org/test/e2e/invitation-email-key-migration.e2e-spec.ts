import { randomUUID } from 'node:crypto';
import { dropDatabase, ensureDatabase, runMigrations } from '@wp/persistence';
import { TEST_SERVERS, uniqueId } from '@wp/testing';
import type { DataSource } from 'typeorm';
import { orgDataSource } from '../../src/database/data-source.js';

/**
 * The invitation email-key migration on a database that already holds invitations to spellings
 * of one address (docs/org.md § Invitations): every invitation gets its key; of pending
 * invitations of one scope whose keys collide the one sent last stays pending and the others are
 * cancelled, so the unique index can hold.
 */
describe('invitation email key migration with existing look-alike invitations', () => {
  const url = `${TEST_SERVERS.postgres}/wp_org_${uniqueId('ikey')}`;
  let db: DataSource;
  let organizationId: number;

  const invite = async (email: string, lastSentAt: string, status = 'pending'): Promise<string> => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO invitation (id, organization_id, project_id, email, org_role, status, token_hash,
                               invited_by, expires_at, last_sent_at)
       VALUES ($1, $2, NULL, $3, 'MEMBER', $4, $5, $6, now() + interval '1 day', $7)`,
      [id, organizationId, email, status, randomUUID(), randomUUID(), lastSentAt],
    );
    return id;
  };

  beforeAll(async () => {
    await ensureDatabase(url);
    db = orgDataSource(url);
    await db.initialize();
    await runMigrations(db);
    // back to before the email key: undo it and the migrations that came after it
    const emailKey = db.migrations.findIndex((m) => m.name === 'InvitationEmailKey1796300000000');
    for (let i = db.migrations.length; i > emailKey; i--) {
      await db.undoLastMigration({ transaction: 'each' });
    }
    [{ id: organizationId }] = await db.query(
      `INSERT INTO organization (name) VALUES ('Keys') RETURNING id`,
    );
  });
  afterAll(async () => {
    await db?.destroy();
    await dropDatabase(url);
  });

  it('keys every invitation and keeps the last sent of colliding pending ones', async () => {
    const older = await invite('ada@example.com', '2026-01-01T00:00:00Z');
    const newer = await invite('\uff41da@example.com', '2026-02-01T00:00:00Z');
    const accepted = await invite('ADA@example.com', '2026-03-01T00:00:00Z', 'accepted');
    const other = await invite('Grace@\uff45xample.com', '2026-01-01T00:00:00Z');

    await runMigrations(db);

    const rows: { id: string; email: string; email_key: string; status: string }[] = await db.query(
      'SELECT id, email, email_key, status FROM invitation',
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(newer)).toMatchObject({ email_key: 'ada@example.com', status: 'pending' });
    expect(byId.get(older)).toMatchObject({ email_key: 'ada@example.com', status: 'cancelled' });
    expect(byId.get(accepted)).toMatchObject({ email_key: 'ada@example.com', status: 'accepted' });
    expect(byId.get(other)).toMatchObject({
      email: 'Grace@\uff45xample.com',
      email_key: 'grace@example.com',
      status: 'pending',
    });
    // One pending invitation per key and scope from now on.
    await expect(
      db.query(
        `INSERT INTO invitation (id, organization_id, email, email_key, status, token_hash,
                                 invited_by, expires_at, last_sent_at)
         VALUES ($1, $2, 'ADA@EXAMPLE.COM', 'ada@example.com', 'pending', $3, $4, now(), now())`,
        [randomUUID(), organizationId, randomUUID(), randomUUID()],
      ),
    ).rejects.toThrow(/invitation_one_pending_org_per_email/);
  });
});
