import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per organization, whether an enabled webhook endpoint of it takes `transaction.posted`
 * (`org.webhook_subscriptions.changed`, newest `version` wins): the announcing ledger statement
 * writes `wallet.transaction.posted` only for wallets of such organizations (docs/webhooks.md
 * § Transaction events and the transfer path).
 */
export class WebhookHint1796200000000 implements MigrationInterface {
  name = 'WebhookHint1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_hint" ("organization_id" integer PRIMARY KEY,
        "transaction_events" boolean NOT NULL, "version" bigint NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "webhook_hint"');
  }
}
