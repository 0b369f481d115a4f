import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor authentication and session management (docs/auth.md): TOTP authenticators with
 * their sealed secret and last accepted step, recovery code HMACs, login challenges of the
 * second step, the account's two-factor flag and version, and each session's last use (time,
 * user agent, client address).
 */
export class TwoFactorAndSessionClients1795671616137 implements MigrationInterface {
  name = 'TwoFactorAndSessionClients1795671616137';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "mfa_challenge" ("id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "user_id" uuid NOT NULL, "app_id" uuid NOT NULL, "failed_attempts" integer NOT NULL DEFAULT \'0\', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "consumed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_e7913ab144d52a98d3f241a45dc" UNIQUE ("token_hash"), CONSTRAINT "PK_5ab263b5dc61af1bff77efa1174" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "mfa_challenge_expires_idx" ON "mfa_challenge"  ("expires_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "recovery_code" ("user_id" uuid NOT NULL, "code_hash" character(64) NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a0a5d0531fcd8f15f45cf088e88" PRIMARY KEY ("user_id", "code_hash"))',
    );
    await queryRunner.query(
      'CREATE TABLE "totp_credential" ("user_id" uuid NOT NULL, "sealed_secret" text NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, "last_used_step" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_04a10ef8f905895b1f191bfa236" PRIMARY KEY ("user_id"))',
    );
    await queryRunner.query(
      'ALTER TABLE "app_user" ADD "two_factor_enabled" boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query(
      'ALTER TABLE "app_user" ADD "two_factor_version" integer NOT NULL DEFAULT \'0\'',
    );
    await queryRunner.query(
      'ALTER TABLE "refresh_token_family" ADD "last_used_at" TIMESTAMP WITH TIME ZONE',
    );
    await queryRunner.query('ALTER TABLE "refresh_token_family" ADD "last_user_agent" text');
    await queryRunner.query('ALTER TABLE "refresh_token_family" ADD "last_client_address" text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "refresh_token_family" DROP COLUMN "last_client_address"');
    await queryRunner.query('ALTER TABLE "refresh_token_family" DROP COLUMN "last_user_agent"');
    await queryRunner.query('ALTER TABLE "refresh_token_family" DROP COLUMN "last_used_at"');
    await queryRunner.query('ALTER TABLE "app_user" DROP COLUMN "two_factor_version"');
    await queryRunner.query('ALTER TABLE "app_user" DROP COLUMN "two_factor_enabled"');
    await queryRunner.query('DROP TABLE "totp_credential"');
    await queryRunner.query('DROP TABLE "recovery_code"');
    await queryRunner.query('DROP INDEX "public"."mfa_challenge_expires_idx"');
    await queryRunner.query('DROP TABLE "mfa_challenge"');
  }
}
