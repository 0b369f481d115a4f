import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The credential epoch of each Sentinel Pass, kept by org as auth does (docs/architecture.md
 * § Withdrawn permissions at once): org deny-lists the agent tokens of an ended epoch before the
 * revoking request answers. Existing passes start at 0 whatever auth counted; a pass rotated,
 * revoked or deleted before this migration therefore relies once on auth's asynchronous
 * deny-listing (docs/org.md § Sentinel Pass).
 */
export class SentinelPassCredentialEpoch1796100000300 implements MigrationInterface {
  name = 'SentinelPassCredentialEpoch1796100000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sentinel_pass" ADD "credential_epoch" integer NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sentinel_pass" DROP COLUMN "credential_epoch"`);
  }
}
