import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795330077820 implements MigrationInterface {
  name = 'Init1795330077820';

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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."processed_event_processed_at_idx"');
    await queryRunner.query('DROP TABLE "processed_event"');
    await queryRunner.query('DROP INDEX "public"."outbox_message_unpublished_idx"');
    await queryRunner.query('DROP INDEX "public"."outbox_message_published_at_idx"');
    await queryRunner.query('DROP TABLE "outbox_message"');
  }
}
