import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795329926949 implements MigrationInterface {
  name = 'Init1795329926949';

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
      'CREATE TABLE "organization_membership" ("organization_id" integer NOT NULL, "user_id" uuid NOT NULL, "role" text NOT NULL, "version" bigint NOT NULL DEFAULT \'1\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4c0dd6adaf8fc161026db004550" PRIMARY KEY ("organization_id", "user_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "organization_membership_user_idx" ON "organization_membership"  ("user_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "organization" ("id" integer GENERATED ALWAYS AS IDENTITY NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_472c1f99a32def1b0abb219cd67" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "project" ("id" integer GENERATED ALWAYS AS IDENTITY NOT NULL, "organization_id" integer NOT NULL, "name" text NOT NULL, "is_default" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4d68b1358bb5b766d3e78f32f57" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "project_one_default_per_organization" ON "project"  ("organization_id") WHERE is_default',
    );
    await queryRunner.query(
      'CREATE INDEX "project_organization_idx" ON "project"  ("organization_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "directory_user" ("id" uuid NOT NULL, "email" text, "phone" text, "first_name" text NOT NULL DEFAULT \'\', "last_name" text NOT NULL DEFAULT \'\', "status" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_117c85da15fbddc16d2e2d3a361" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "directory_user_email_idx" ON "directory_user"  ("email") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."directory_user_email_idx"');
    await queryRunner.query('DROP TABLE "directory_user"');
    await queryRunner.query('DROP INDEX "public"."project_organization_idx"');
    await queryRunner.query('DROP INDEX "public"."project_one_default_per_organization"');
    await queryRunner.query('DROP TABLE "project"');
    await queryRunner.query('DROP TABLE "organization"');
    await queryRunner.query('DROP INDEX "public"."organization_membership_user_idx"');
    await queryRunner.query('DROP TABLE "organization_membership"');
    await queryRunner.query('DROP INDEX "public"."processed_event_processed_at_idx"');
    await queryRunner.query('DROP TABLE "processed_event"');
    await queryRunner.query('DROP INDEX "public"."outbox_message_unpublished_idx"');
    await queryRunner.query('DROP INDEX "public"."outbox_message_published_at_idx"');
    await queryRunner.query('DROP TABLE "outbox_message"');
  }
}
