import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refresh rotations as HOT updates (docs/auth.md § Benchmark: PostgreSQL rows and gateway work
 * per refresh). A rotation changes `current_token_hash`, `rotated_at` and `grace_response`; while
 * any of them is indexed (or in an index predicate) PostgreSQL writes a new entry into every index
 * of `refresh_token_family` per rotation. So:
 * - the UNIQUE constraint on `current_token_hash` goes: no query looks a family up by it, and
 *   the hash is unique anyway — both statements that set it (session open, rotation) insert the
 *   same hash into `refresh_token`, whose primary key refuses a hash issued before, failing the
 *   whole statement;
 * - `refresh_token_family_grace_idx` (`rotated_at` where `grace_response` is set) goes: the purge
 *   now finds rotations whose grace window closed through `refresh_token_rotation_issued_idx`,
 *   the time each rotation's token was issued (an insert-only table: no update is affected);
 * - `refresh_token_family_passkey_idx` goes: no query used it (removing a passkey selects by
 *   `user_id`, `refresh_token_family_user_idx`);
 * - `fillfactor` 70 leaves room on each page for the new row version (a family with its sealed
 *   pair is ~1.8 KB; pages already full fill up to 70 % only once rewritten or vacuumed free).
 * A previous release running during a rolling update writes the same columns and purges with the
 * old statement (a sequential scan now, once a minute): slower, not wrong.
 */
export class RefreshRotationHot1796800000000 implements MigrationInterface {
  name = 'RefreshRotationHot1796800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "refresh_token_family" DROP CONSTRAINT "UQ_483b371a9efa77d40aebcaf47c7"',
    );
    await queryRunner.query('DROP INDEX "public"."refresh_token_family_grace_idx"');
    await queryRunner.query('DROP INDEX "public"."refresh_token_family_passkey_idx"');
    await queryRunner.query('ALTER TABLE "refresh_token_family" SET (fillfactor = 70)');
    await queryRunner.query(
      'CREATE INDEX "refresh_token_rotation_issued_idx" ON "refresh_token" ("issued_at") WHERE generation > 0',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."refresh_token_rotation_issued_idx"');
    await queryRunner.query('ALTER TABLE "refresh_token_family" RESET (fillfactor)');
    await queryRunner.query(
      'CREATE INDEX "refresh_token_family_passkey_idx" ON "refresh_token_family"  ("passkey_id") WHERE passkey_id IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "refresh_token_family_grace_idx" ON "refresh_token_family"  ("rotated_at") WHERE grace_response IS NOT NULL',
    );
    await queryRunner.query(
      'ALTER TABLE "refresh_token_family" ADD CONSTRAINT "UQ_483b371a9efa77d40aebcaf47c7" UNIQUE ("current_token_hash")',
    );
  }
}
