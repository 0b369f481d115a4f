import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The durable record of the deny-list entries this service writes (docs/architecture.md § Redis
 * is a cache): `recordRevocation` of @wp/security inserts in the command's transaction, a rebuild
 * restores the live rows into Redis, expired rows are purged.
 */
export class Revocation1796200000501 implements MigrationInterface {
  name = 'Revocation1796200000501';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "revocation" ("kind" text NOT NULL CHECK ("kind" IN ('jti', 'sid')),
        "id" text NOT NULL, "expires_at" timestamptz NOT NULL, PRIMARY KEY ("kind", "id"))`,
    );
    await queryRunner.query('CREATE INDEX "revocation_expires_at" ON "revocation" ("expires_at")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "revocation"');
  }
}
