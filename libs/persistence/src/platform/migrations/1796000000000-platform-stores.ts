import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The platform database's first tables (docs/architecture.md § Two modes): the Api-Key registry,
 * the access-token deny-list, rate-limit counters (rate-limiter-flexible's `RateLimiterPostgres`
 * layout) and request/reply in flight. Request/reply rows live for seconds, so their tables are
 * UNLOGGED (no WAL; emptied after a crash, when the callers have given up anyway). The event
 * queues are pg-boss's own schema `pgboss`, installed by pg-boss.
 */
export class PlatformStores1796000000000 implements MigrationInterface {
  name = 'PlatformStores1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_key" ("key_hash" text PRIMARY KEY, "app_id" text NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now())`,
    );
    await queryRunner.query(
      `CREATE TABLE "revocation" ("kind" text NOT NULL CHECK ("kind" IN ('jti', 'sid')),
        "id" text NOT NULL, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("kind", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "revocation_expires_at_idx" ON "revocation" ("expires_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "rate_limit" ("key" varchar(255) PRIMARY KEY,
        "points" integer NOT NULL DEFAULT 0, "expire" bigint)`,
    );
    await queryRunner.query(
      `CREATE UNLOGGED TABLE "rpc_request" ("id" uuid PRIMARY KEY, "subject" text NOT NULL,
        "body" text NOT NULL, "reply_to" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now())`,
    );
    await queryRunner.query(
      `CREATE UNLOGGED TABLE "rpc_response" ("id" uuid PRIMARY KEY, "body" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now())`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['rpc_response', 'rpc_request', 'rate_limit', 'revocation', 'api_key']) {
      await queryRunner.query(`DROP TABLE "${table}"`);
    }
  }
}
