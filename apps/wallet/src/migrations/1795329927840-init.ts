import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795329927840 implements MigrationInterface {
  name = 'Init1795329927840';

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
      'CREATE TABLE "organization_member" ("organization_id" integer NOT NULL, "user_id" uuid NOT NULL, "role" text, "version" bigint NOT NULL, CONSTRAINT "PK_ade1a22b88a5464464fe520d070" PRIMARY KEY ("organization_id", "user_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "organization_member_user_idx" ON "organization_member"  ("user_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "wallet" ("address_hash" character(42) NOT NULL, "entity_type" text NOT NULL, "entity_id" text NOT NULL, "entity_name" text NOT NULL, "purpose" text NOT NULL DEFAULT \'general\', "currency" text NOT NULL DEFAULT \'CREDITS\', "description" text NOT NULL DEFAULT \'\', "metadata" jsonb NOT NULL DEFAULT \'{}\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e3af5ab1e410c820ad781fc9041" PRIMARY KEY ("address_hash"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "wallet_entity_purpose_key" ON "wallet"  ("entity_type", "entity_id", "purpose") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."wallet_entity_purpose_key"');
    await queryRunner.query('DROP TABLE "wallet"');
    await queryRunner.query('DROP INDEX "public"."organization_member_user_idx"');
    await queryRunner.query('DROP TABLE "organization_member"');
    await queryRunner.query('DROP INDEX "public"."processed_event_processed_at_idx"');
    await queryRunner.query('DROP TABLE "processed_event"');
    await queryRunner.query('DROP INDEX "public"."outbox_message_unpublished_idx"');
    await queryRunner.query('DROP INDEX "public"."outbox_message_published_at_idx"');
    await queryRunner.query('DROP TABLE "outbox_message"');
  }
}
