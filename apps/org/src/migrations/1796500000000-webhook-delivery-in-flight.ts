import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-endpoint concurrency is counted in PostgreSQL across every org process (docs/org.md §
 * Webhooks, Dispatcher): each claim counts an endpoint's leased deliveries, so the leased rows
 * get a partial index of their own (a handful of rows per endpoint, whatever the backlog).
 */
export class WebhookDeliveryInFlight1796500000000 implements MigrationInterface {
  name = 'WebhookDeliveryInFlight1796500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "webhook_delivery_in_flight_idx" ON "webhook_delivery"  ("endpoint_id") WHERE status = \'delivering\'',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."webhook_delivery_in_flight_idx"');
  }
}
