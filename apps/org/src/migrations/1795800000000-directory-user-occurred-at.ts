import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `directory_user.occurred_at`: the event time of the last `auth.user.*` snapshot applied, so an
 * older one delivered later is ignored. Existing rows keep NULL (the next snapshot applies).
 */
export class DirectoryUserOccurredAt1795800000000 implements MigrationInterface {
  name = 'DirectoryUserOccurredAt1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "directory_user" ADD "occurred_at" TIMESTAMP WITH TIME ZONE',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "directory_user" DROP COLUMN "occurred_at"');
  }
}
