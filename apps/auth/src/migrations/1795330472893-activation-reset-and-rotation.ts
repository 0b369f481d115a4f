import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Activation codes, password reset tokens, and the refresh token history that lets a replayed
 * old token revoke its family (docs/architecture.md § Identity and access); the family's
 * `previous_token_hash` gives way to the generation recorded per token.
 */
export class ActivationResetAndRotation1795330472893 implements MigrationInterface {
  name = 'ActivationResetAndRotation1795330472893';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "activation_code" ("user_id" uuid NOT NULL, "channel" text NOT NULL, "code_hmac" character(64) NOT NULL, "failed_attempts" integer NOT NULL DEFAULT \'0\', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_eb3d5fb1322a152bc8be3015b83" PRIMARY KEY ("user_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "password_reset_token" ("user_id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_a802f319abf4af2432d629dfe5c" UNIQUE ("token_hash"), CONSTRAINT "PK_7eabb22ed38459ffc24dc8b415d" PRIMARY KEY ("user_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "refresh_token" ("token_hash" character(64) NOT NULL, "family_id" uuid NOT NULL, "generation" integer NOT NULL, "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f0812282fad2e352cdaf83ef0a9" PRIMARY KEY ("token_hash"))',
    );
    await queryRunner.query(
      'CREATE INDEX "refresh_token_family_idx" ON "refresh_token"  ("family_id") ',
    );
    await queryRunner.query(
      'ALTER TABLE "refresh_token_family" DROP CONSTRAINT "UQ_3b77b078785afb3e66f3d83a40f"',
    );
    await queryRunner.query('ALTER TABLE "refresh_token_family" DROP COLUMN "previous_token_hash"');
    await queryRunner.query(
      'CREATE INDEX "refresh_token_family_grace_idx" ON "refresh_token_family"  ("rotated_at") WHERE grace_response IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "refresh_token_family_expires_idx" ON "refresh_token_family"  ("expires_at") ',
    );
    await queryRunner.query(
      'ALTER TABLE "activation_code" ADD CONSTRAINT "FK_eb3d5fb1322a152bc8be3015b83" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "password_reset_token" ADD CONSTRAINT "FK_7eabb22ed38459ffc24dc8b415d" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "refresh_token" ADD CONSTRAINT "FK_eb31f2a7917404a46e17f539f19" FOREIGN KEY ("family_id") REFERENCES "refresh_token_family"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    // Families opened before this migration: their current token becomes findable.
    await queryRunner.query(
      'INSERT INTO "refresh_token" ("token_hash", "family_id", "generation", "issued_at") SELECT "current_token_hash", "id", "generation", COALESCE("rotated_at", "created_at") FROM "refresh_token_family"',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "refresh_token" DROP CONSTRAINT "FK_eb31f2a7917404a46e17f539f19"',
    );
    await queryRunner.query(
      'ALTER TABLE "password_reset_token" DROP CONSTRAINT "FK_7eabb22ed38459ffc24dc8b415d"',
    );
    await queryRunner.query(
      'ALTER TABLE "activation_code" DROP CONSTRAINT "FK_eb3d5fb1322a152bc8be3015b83"',
    );
    await queryRunner.query('DROP INDEX "public"."refresh_token_family_expires_idx"');
    await queryRunner.query('DROP INDEX "public"."refresh_token_family_grace_idx"');
    await queryRunner.query(
      'ALTER TABLE "refresh_token_family" ADD "previous_token_hash" character(64)',
    );
    await queryRunner.query(
      'ALTER TABLE "refresh_token_family" ADD CONSTRAINT "UQ_3b77b078785afb3e66f3d83a40f" UNIQUE ("previous_token_hash")',
    );
    await queryRunner.query('DROP INDEX "public"."refresh_token_family_idx"');
    await queryRunner.query('DROP TABLE "refresh_token"');
    await queryRunner.query('DROP TABLE "password_reset_token"');
    await queryRunner.query('DROP TABLE "activation_code"');
  }
}
