import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys (docs/auth.md § Passkeys): WebAuthn credentials of accounts, single-use ceremony
 * challenges, each client application's relying party (id and origins; null = the platform's
 * `WEBAUTHN_RP_ID` / `WEBAUTHN_ORIGINS`), and the `amr` of the sign-in that opened a session.
 * Additive only: a previous release running during a rolling update ignores them.
 */
export class Passkeys1796400000700 implements MigrationInterface {
  name = 'Passkeys1796400000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "passkey_credential" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "credential_id" text NOT NULL, "public_key" bytea NOT NULL, "sign_count" bigint NOT NULL DEFAULT \'0\', "transports" text array NOT NULL DEFAULT \'{}\', "device_type" text NOT NULL, "backed_up" boolean NOT NULL, "name" text NOT NULL, "rp_id" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_4632da759156ba482b70930b3fd" UNIQUE ("credential_id"), CONSTRAINT "PK_192d857208b2315375852a6e373" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "passkey_credential_user_idx" ON "passkey_credential"  ("user_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webauthn_challenge" ("challenge" text NOT NULL, "ceremony" text NOT NULL, "user_id" uuid, "app_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_02970744ceb7817484a22103f63" PRIMARY KEY ("challenge"))',
    );
    await queryRunner.query(
      'CREATE INDEX "webauthn_challenge_expires_idx" ON "webauthn_challenge"  ("expires_at") ',
    );
    await queryRunner.query('ALTER TABLE "client_application" ADD "webauthn_rp_id" text');
    await queryRunner.query('ALTER TABLE "client_application" ADD "webauthn_origins" text array');
    await queryRunner.query('ALTER TABLE "refresh_token_family" ADD "amr" text array');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "refresh_token_family" DROP COLUMN "amr"');
    await queryRunner.query('ALTER TABLE "client_application" DROP COLUMN "webauthn_origins"');
    await queryRunner.query('ALTER TABLE "client_application" DROP COLUMN "webauthn_rp_id"');
    await queryRunner.query('DROP INDEX "public"."webauthn_challenge_expires_idx"');
    await queryRunner.query('DROP TABLE "webauthn_challenge"');
    await queryRunner.query('DROP INDEX "public"."passkey_credential_user_idx"');
    await queryRunner.query('DROP TABLE "passkey_credential"');
  }
}
