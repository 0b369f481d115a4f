import { emailKey } from '@wp/identity/keys';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const BATCH = 1000;

/**
 * Invitations are matched by the invitee's email key (docs/auth.md § Usernames; docs/org.md §
 * Invitations): `invitation.email_key`, computed for every existing invitation with the service's
 * function (`emailKey` of `@wp/identity`); the indexes on `email` move to it.
 *
 * Two pending invitations of one organization or project whose addresses are spellings of one
 * address (`ADA@…` and `ａda@…`) cannot both stay pending under the unique index: the one sent
 * last (`last_sent_at`, then `created_at`, then id) stays, the others become `cancelled` in the
 * same transaction (their tokens stop working, as for a cancel). Nothing is deleted.
 */
export class InvitationEmailKey1796300000000 implements MigrationInterface {
  name = 'InvitationEmailKey1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "invitation" ADD "email_key" text');
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = (await queryRunner.query(
        'SELECT id, email FROM invitation WHERE id > $1 ORDER BY id LIMIT $2',
        [after, BATCH],
      )) as { id: string; email: string }[];
      if (rows.length === 0) break;
      await queryRunner.query(
        `UPDATE invitation i SET email_key = k.key
           FROM unnest($1::uuid[], $2::text[]) AS k(id, key) WHERE i.id = k.id`,
        [rows.map((r) => r.id), rows.map((r) => emailKey(r.email) ?? r.email.toLowerCase())],
      );
      after = rows[rows.length - 1].id;
    }
    await queryRunner.query(
      `UPDATE invitation i SET status = 'cancelled', updated_at = now()
         FROM (SELECT id, row_number() OVER (
                 PARTITION BY organization_id, project_id, email_key
                 ORDER BY last_sent_at DESC, created_at DESC, id) AS rank
                 FROM invitation WHERE status = 'pending') ranked
        WHERE ranked.id = i.id AND ranked.rank > 1`,
    );
    await queryRunner.query('ALTER TABLE "invitation" ALTER COLUMN "email_key" SET NOT NULL');
    await queryRunner.query('DROP INDEX "public"."invitation_email_pending_idx"');
    await queryRunner.query('DROP INDEX "public"."invitation_one_pending_per_email"');
    await queryRunner.query('DROP INDEX "public"."invitation_one_pending_org_per_email"');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "invitation_one_pending_org_per_email" ON "invitation" ("organization_id", "email_key") WHERE status = \'pending\' AND project_id IS NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "invitation_one_pending_per_email" ON "invitation" ("organization_id", "project_id", "email_key") WHERE status = \'pending\' AND project_id IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "invitation_email_pending_idx" ON "invitation" ("email_key") WHERE status = \'pending\'',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."invitation_email_pending_idx"');
    await queryRunner.query('DROP INDEX "public"."invitation_one_pending_per_email"');
    await queryRunner.query('DROP INDEX "public"."invitation_one_pending_org_per_email"');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "invitation_one_pending_org_per_email" ON "invitation" ("organization_id", "email") WHERE status = \'pending\' AND project_id IS NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "invitation_one_pending_per_email" ON "invitation" ("organization_id", "project_id", "email") WHERE status = \'pending\' AND project_id IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "invitation_email_pending_idx" ON "invitation" ("email") WHERE status = \'pending\'',
    );
    await queryRunner.query('ALTER TABLE "invitation" DROP COLUMN "email_key"');
  }
}
