import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InvitationResendBudget1795672616438 implements MigrationInterface {
  name = 'InvitationResendBudget1795672616438';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "invitation" ADD "resent_at" TIMESTAMP WITH TIME ZONE array NOT NULL DEFAULT \'{}\'',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "invitation" DROP COLUMN "resent_at"');
  }
}
