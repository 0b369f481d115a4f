import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in with an OpenID provider (docs/auth.md § Sign-in with an OpenID provider): operators'
 * connections (client secret sealed), the single-use pending sign-ins and one-time codes of the
 * browser flow, accounts' provider identities (unique `iss` + `sub`), and each client
 * application's exact redirect URI allow-list.
 */
export class OidcFederation1796400000000 implements MigrationInterface {
  name = 'OidcFederation1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "oidc_connection" ("id" uuid NOT NULL, "slug" text NOT NULL, "name" text NOT NULL, "issuer" text NOT NULL, "client_id" text NOT NULL, "client_secret_sealed" text NOT NULL, "scopes" text NOT NULL, "email_claim" text NOT NULL, "email_verified_claim" text NOT NULL, "name_claim" text NOT NULL, "enabled" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_e8f56e549778d80d2ff3865d9e9" UNIQUE ("slug"), CONSTRAINT "PK_8bb5209908b00a3790d4a3e5298" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "sso_code" ("code_hash" character(64) NOT NULL, "user_id" uuid NOT NULL, "app_id" uuid NOT NULL, "redirect_uri" text NOT NULL, "code_challenge" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5bb2f7d78043b8a889b6eb3cefc" PRIMARY KEY ("code_hash"))',
    );
    await queryRunner.query('CREATE INDEX "sso_code_expires_at" ON "sso_code"  ("expires_at") ');
    await queryRunner.query(
      'CREATE TABLE "sso_request" ("state_hash" character(64) NOT NULL, "connection_id" uuid NOT NULL, "app_id" uuid NOT NULL, "redirect_uri" text NOT NULL, "client_state" text NOT NULL, "code_challenge" text NOT NULL, "nonce" text NOT NULL, "code_verifier" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_bc9a161e3efe5bdb09164ee992c" PRIMARY KEY ("state_hash"))',
    );
    await queryRunner.query(
      'CREATE INDEX "sso_request_expires_at" ON "sso_request"  ("expires_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "user_identity" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "connection_id" uuid NOT NULL, "issuer" text NOT NULL, "subject" text NOT NULL, "email" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_sign_in_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_87b5856b206b5b77e6e2fa29508" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "user_identity_user" ON "user_identity"  ("user_id") ');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "user_identity_issuer_subject" ON "user_identity"  ("issuer", "subject") ',
    );
    await queryRunner.query(
      'ALTER TABLE "client_application" ADD "redirect_uris" text array NOT NULL DEFAULT \'{}\'',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "client_application" DROP COLUMN "redirect_uris"');
    await queryRunner.query('DROP INDEX "public"."user_identity_issuer_subject"');
    await queryRunner.query('DROP INDEX "public"."user_identity_user"');
    await queryRunner.query('DROP TABLE "user_identity"');
    await queryRunner.query('DROP INDEX "public"."sso_request_expires_at"');
    await queryRunner.query('DROP TABLE "sso_request"');
    await queryRunner.query('DROP INDEX "public"."sso_code_expires_at"');
    await queryRunner.query('DROP TABLE "sso_code"');
    await queryRunner.query('DROP TABLE "oidc_connection"');
  }
}
