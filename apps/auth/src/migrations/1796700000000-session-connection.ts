import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OIDC connection a session was signed in through (docs/auth.md § Organization single
 * sign-on, "`ssoRequired`"): `sso_code.connection_id` carries it from the callback to the code
 * exchange, `refresh_token_family.connection_id` keeps it on the session (null for every other
 * sign-in), so an organization that starts requiring SSO can end exactly the sessions at its
 * domains that its own connection did not open. Additive only: a previous release running during
 * a rolling update ignores both (its provider sessions carry null and are ended like password
 * sessions, which fails closed).
 */
export class SessionConnection1796700000000 implements MigrationInterface {
  name = 'SessionConnection1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "sso_code" ADD "connection_id" uuid');
    await queryRunner.query('ALTER TABLE "refresh_token_family" ADD "connection_id" uuid');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "refresh_token_family" DROP COLUMN "connection_id"');
    await queryRunner.query('ALTER TABLE "sso_code" DROP COLUMN "connection_id"');
  }
}
