import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook delivery (docs/org.md § Webhooks): endpoints, messages, deliveries (the queue, claimed
 * with `FOR UPDATE SKIP LOCKED` through the partial due index) and attempts.
 */
export class Webhooks1796400000000 implements MigrationInterface {
  name = 'Webhooks1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "webhook_endpoint" ("id" uuid NOT NULL, "organization_id" integer NOT NULL, "project_id" integer, "url" text NOT NULL, "description" text NOT NULL DEFAULT \'\', "event_types" text array NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "disabled_reason" text, "encrypted_secret" text NOT NULL, "previous_encrypted_secret" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "failing_since" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6c98112122b2b8a4f3984d2efa8" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_endpoint_project_idx" ON "webhook_endpoint"  ("project_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_endpoint_organization_idx" ON "webhook_endpoint"  ("organization_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_message" ("id" uuid NOT NULL, "event_id" text NOT NULL, "organization_id" integer NOT NULL, "project_id" integer, "event_type" text NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_message_event_uq" UNIQUE ("organization_id", "event_id"), CONSTRAINT "PK_07903a2e1c41801efd06f7110b8" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_message_created_idx" ON "webhook_message"  ("created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_message_organization_idx" ON "webhook_message"  ("organization_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_delivery" ("id" uuid NOT NULL, "message_id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "event_type" text NOT NULL, "status" text NOT NULL DEFAULT \'pending\', "attempt_count" integer NOT NULL DEFAULT \'0\', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "locked_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_delivery_message_endpoint_uq" UNIQUE ("message_id", "endpoint_id"), CONSTRAINT "PK_b1ae290239a778f12399db91354" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_delivery_endpoint_type_idx" ON "webhook_delivery"  ("endpoint_id", "event_type", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_delivery_endpoint_status_idx" ON "webhook_delivery"  ("endpoint_id", "status", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_delivery_endpoint_idx" ON "webhook_delivery"  ("endpoint_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_delivery_due_idx" ON "webhook_delivery"  ("next_attempt_at") WHERE status IN (\'pending\', \'delivering\')',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_attempt" ("id" uuid NOT NULL, "delivery_id" uuid NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "duration_ms" integer NOT NULL, "response_status" integer, "response_body" text, "error" text, CONSTRAINT "PK_e4ff77b66cdd20591ba6189a1f9" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "webhook_attempt_delivery_idx" ON "webhook_attempt"  ("delivery_id", "started_at") ',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "FK_e5800fed79898bb7202e9312276" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "FK_6898843ad72bd7f855e2d4e6bae" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_a9e38e6f50dfd328baca6679b36" FOREIGN KEY ("message_id") REFERENCES "webhook_message"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_f53f5aec02217a54927b13e39d9" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_attempt" ADD CONSTRAINT "FK_d7ed48c4841159bfd6bdee166ea" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "webhook_attempt" DROP CONSTRAINT "FK_d7ed48c4841159bfd6bdee166ea"',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_delivery" DROP CONSTRAINT "FK_f53f5aec02217a54927b13e39d9"',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_delivery" DROP CONSTRAINT "FK_a9e38e6f50dfd328baca6679b36"',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_endpoint" DROP CONSTRAINT "FK_6898843ad72bd7f855e2d4e6bae"',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_endpoint" DROP CONSTRAINT "FK_e5800fed79898bb7202e9312276"',
    );
    await queryRunner.query('DROP INDEX "public"."webhook_attempt_delivery_idx"');
    await queryRunner.query('DROP TABLE "webhook_attempt"');
    await queryRunner.query('DROP INDEX "public"."webhook_delivery_due_idx"');
    await queryRunner.query('DROP INDEX "public"."webhook_delivery_endpoint_idx"');
    await queryRunner.query('DROP INDEX "public"."webhook_delivery_endpoint_status_idx"');
    await queryRunner.query('DROP INDEX "public"."webhook_delivery_endpoint_type_idx"');
    await queryRunner.query('DROP TABLE "webhook_delivery"');
    await queryRunner.query('DROP INDEX "public"."webhook_message_organization_idx"');
    await queryRunner.query('DROP INDEX "public"."webhook_message_created_idx"');
    await queryRunner.query('DROP TABLE "webhook_message"');
    await queryRunner.query('DROP INDEX "public"."webhook_endpoint_organization_idx"');
    await queryRunner.query('DROP INDEX "public"."webhook_endpoint_project_idx"');
    await queryRunner.query('DROP TABLE "webhook_endpoint"');
  }
}
