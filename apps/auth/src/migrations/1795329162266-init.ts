import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795329162266 implements MigrationInterface {
  name = 'Init1795329162266';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "outbox_message" ("id" uuid NOT NULL, "seq" BIGSERIAL NOT NULL, "subject" text NOT NULL, "payload" jsonb NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "published_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_00ec26684da6600a9df180fba54" UNIQUE ("seq"), CONSTRAINT "PK_2f36ee5236f2793f3e7bd554589" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "outbox_message_published_at_idx" ON "outbox_message"  ("published_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "outbox_message_unpublished_idx" ON "outbox_message"  ("seq") WHERE published_at IS NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "processed_event" ("consumer" text NOT NULL, "event_id" uuid NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_df88f54e67ec5c5caece922a498" PRIMARY KEY ("consumer", "event_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "processed_event_processed_at_idx" ON "processed_event"  ("processed_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "client_application" ("id" uuid NOT NULL, "name" text NOT NULL, "key_hash" character(64) NOT NULL, "key_prefix" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_b87bcd4f6ea4229e7cc33e3ed73" UNIQUE ("key_hash"), CONSTRAINT "PK_029c986b804cc9d3c938747c443" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "refresh_token_family" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "app_id" uuid NOT NULL, "current_token_hash" character(64) NOT NULL, "previous_token_hash" character(64), "generation" integer NOT NULL DEFAULT \'0\', "rotated_at" TIMESTAMP WITH TIME ZONE, "grace_response" text, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "revoked_reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_483b371a9efa77d40aebcaf47c7" UNIQUE ("current_token_hash"), CONSTRAINT "UQ_3b77b078785afb3e66f3d83a40f" UNIQUE ("previous_token_hash"), CONSTRAINT "PK_eb31f2a7917404a46e17f539f19" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "refresh_token_family_user_idx" ON "refresh_token_family"  ("user_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "app_user" ("id" uuid NOT NULL, "email" text, "phone" text, "password_hash" text NOT NULL, "status" text NOT NULL, "first_name" text NOT NULL DEFAULT \'\', "last_name" text NOT NULL DEFAULT \'\', "activated_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_22a5c4a3d9b2fb8e4e73fc4ada1" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "app_user_phone_key" ON "app_user"  ("phone") WHERE phone IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "app_user_email_key" ON "app_user"  ("email") WHERE email IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."app_user_email_key"');
    await queryRunner.query('DROP INDEX "public"."app_user_phone_key"');
    await queryRunner.query('DROP TABLE "app_user"');
    await queryRunner.query('DROP INDEX "public"."refresh_token_family_user_idx"');
    await queryRunner.query('DROP TABLE "refresh_token_family"');
    await queryRunner.query('DROP TABLE "client_application"');
    await queryRunner.query('DROP INDEX "public"."processed_event_processed_at_idx"');
    await queryRunner.query('DROP TABLE "processed_event"');
    await queryRunner.query('DROP INDEX "public"."outbox_message_unpublished_idx"');
    await queryRunner.query('DROP INDEX "public"."outbox_message_published_at_idx"');
    await queryRunner.query('DROP TABLE "outbox_message"');
  }
}
