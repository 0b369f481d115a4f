import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint's deliveries are leased by one dispatcher at a time, which sends them from a
 * queue of its own (docs/org.md § Webhooks, Dispatcher): each lease names its dispatcher.
 */
export class WebhookDeliveryLeaseholder1796750000000 implements MigrationInterface {
  name = 'WebhookDeliveryLeaseholder1796750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "webhook_delivery" ADD "leased_by" uuid');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "webhook_delivery" DROP COLUMN "leased_by"');
  }
}
