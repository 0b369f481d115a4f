import { emailKey, foldText, parsePhone } from '@wp/identity/keys';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const BATCH = 1000;

/**
 * Accounts are told apart by a username key (docs/auth.md § Usernames): the folded local part
 * and IDNA domain of the email, or the E.164 number, unique. This migration adds
 * `app_user.username_key`, computes it for every existing account with the same functions as
 * the service (`@wp/identity`), then replaces the unique indexes on `email` and `phone` by one on
 * the key. A check constraint refuses an account without a key that is not disabled, so a
 * previous release still running during a rolling update cannot create an unkeyed account (its
 * registrations fail until it is replaced; docs/operations.md § Migrations).
 *
 * Existing accounts whose keys collide (look-alikes registered before: `ａda@…` beside
 * `ada@…`, NFD beside NFC, a zero-width space) cannot all keep it. Per key, the account that
 * keeps it is the active one before a pending one before a disabled one, then the oldest
 * (`created_at`, then id). Every other one is set aside in the same transaction: its key stays
 * NULL (no login, no look-up finds it), its status becomes `disabled`, its sessions are revoked
 * (refresh tokens refused; its access tokens end within their 15 minutes), `auth.user.updated`
 * tells org and wallet, and a row in `username_conflict` records it for an operator
 * (docs/operations.md § Look-alike accounts set aside). Nothing is deleted.
 */
export class UsernameKey1796300000000 implements MigrationInterface {
  name = 'UsernameKey1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "app_user" ADD "username_key" text');
    await queryRunner.query(
      `CREATE TABLE "username_conflict" ("user_id" uuid PRIMARY KEY, "username_key" text NOT NULL,
        "kept_user_id" uuid NOT NULL, "previous_status" text NOT NULL,
        "detected_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now())`,
    );
    await backfillKeys(queryRunner);
    await setConflictsAside(queryRunner);
    await queryRunner.query('DROP INDEX "public"."app_user_email_key"');
    await queryRunner.query('DROP INDEX "public"."app_user_phone_key"');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "app_user_username_key" ON "app_user" ("username_key") WHERE username_key IS NOT NULL',
    );
    await queryRunner.query(
      `ALTER TABLE "app_user" ADD CONSTRAINT "app_user_username_key_present" CHECK ("username_key" IS NOT NULL OR "status" = 'disabled')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "app_user" DROP CONSTRAINT "app_user_username_key_present"',
    );
    await queryRunner.query('DROP INDEX "public"."app_user_username_key"');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "app_user_phone_key" ON "app_user" ("phone") WHERE phone IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "app_user_email_key" ON "app_user" ("email") WHERE email IS NOT NULL',
    );
    await queryRunner.query('DROP TABLE "username_conflict"');
    await queryRunner.query('ALTER TABLE "app_user" DROP COLUMN "username_key"');
  }
}

/** The key of a stored account (the service's `usernameLookupKey` of its email or phone). */
export function storedUsernameKey(email: string | null, phone: string | null): string | null {
  if (email !== null) return emailKey(email) ?? foldText(email.trim());
  if (phone !== null) return parsePhone(phone) ?? phone;
  return null;
}

/** Computes `username_key` for every account, in batches by id. */
async function backfillKeys(queryRunner: QueryRunner): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = (await queryRunner.query(
      'SELECT id, email, phone FROM app_user WHERE id > $1 ORDER BY id LIMIT $2',
      [after, BATCH],
    )) as { id: string; email: string | null; phone: string | null }[];
    if (rows.length === 0) return;
    await queryRunner.query(
      `UPDATE app_user u SET username_key = k.key
         FROM unnest($1::uuid[], $2::text[]) AS k(id, key) WHERE u.id = k.id`,
      [rows.map((r) => r.id), rows.map((r) => storedUsernameKey(r.email, r.phone))],
    );
    after = rows[rows.length - 1].id;
  }
}

/** Keeps one account per key and sets the others aside (see the class comment). */
async function setConflictsAside(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(
    `INSERT INTO username_conflict (user_id, username_key, kept_user_id, previous_status)
     SELECT id, username_key, kept, status FROM (
       SELECT id, username_key, status,
              first_value(id) OVER w AS kept, row_number() OVER w AS rank
         FROM app_user WHERE username_key IS NOT NULL
       WINDOW w AS (PARTITION BY username_key
                    ORDER BY CASE status WHEN 'active' THEN 0 WHEN 'pending_activation' THEN 1
                             ELSE 2 END, created_at, id)
     ) ranked WHERE rank > 1`,
  );
  await queryRunner.query(
    `UPDATE app_user u SET username_key = NULL, status = 'disabled', updated_at = now()
       FROM username_conflict c WHERE c.user_id = u.id`,
  );
  await queryRunner.query(
    `UPDATE refresh_token_family f SET revoked_at = now(), revoked_reason = 'username_conflict'
       FROM username_conflict c WHERE c.user_id = f.user_id AND f.revoked_at IS NULL`,
  );
  await queryRunner.query(
    `INSERT INTO outbox_message (id, subject, payload, occurred_at)
     SELECT gen_random_uuid(), 'auth.user.updated',
            jsonb_build_object('userId', u.id, 'email', u.email, 'phone', u.phone,
                               'firstName', u.first_name, 'lastName', u.last_name,
                               'status', u.status),
            now()
       FROM app_user u JOIN username_conflict c ON c.user_id = u.id`,
  );
}
