import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The passkey a session was signed in with (docs/auth.md § Passkeys, "Removing a passkey"):
 * `refresh_token_family.passkey_id`, null for every other sign-in, so removing the passkey can
 * end exactly the sessions it opened. Additive only: a previous release running during a rolling
 * update ignores it (its passkey sessions then carry null and outlive a removal, as before).
 */
export class SessionPasskey1796500000000 implements MigrationInterface {
  name = 'SessionPasskey1796500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "refresh_token_family" ADD "passkey_id" uuid');
    await queryRunner.query(
      'CREATE INDEX "refresh_token_family_passkey_idx" ON "refresh_token_family"  ("passkey_id") WHERE passkey_id IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."refresh_token_family_passkey_idx"');
    await queryRunner.query('ALTER TABLE "refresh_token_family" DROP COLUMN "passkey_id"');
  }
}
