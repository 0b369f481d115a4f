import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message's payload is kept as the exact text receivers get (`json` keeps it as written;
 * `jsonb` re-orders keys and had to be parsed, re-ordered and serialised again for every
 * attempt): docs/org.md § Webhooks, Queue. Rows stored before keep jsonb's text form (keys
 * sorted), a valid body all the same.
 */
export class WebhookMessageJsonBody1796800000000 implements MigrationInterface {
  name = 'WebhookMessageJsonBody1796800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "webhook_message" ALTER COLUMN "payload" TYPE json USING "payload"::json',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "webhook_message" ALTER COLUMN "payload" TYPE jsonb USING "payload"::jsonb',
    );
  }
}
