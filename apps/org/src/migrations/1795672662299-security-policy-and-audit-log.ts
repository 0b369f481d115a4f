import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization security policy (`require_two_factor`) with the two-factor state of the
 * user directory it is checked against, and the append-only audit log (docs/org.md § Audit
 * log): one index per filter, and a trigger that refuses UPDATE, DELETE and TRUNCATE, so not
 * even a bug in the service can rewrite history.
 */
export class SecurityPolicyAndAuditLog1795672662299 implements MigrationInterface {
  name = 'SecurityPolicyAndAuditLog1795672662299';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "audit_log" ("organization_id" integer NOT NULL, "entry_id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "action" text NOT NULL, "outcome" text NOT NULL, "actor_type" text NOT NULL, "actor_id" text, "actor_email" text, "target_type" text, "target_id" text, "target_label" text, "client_address" text, "request_id" text, "user_agent" text, "service" text NOT NULL, "details" jsonb NOT NULL DEFAULT \'{}\'::jsonb, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1a5fb0a7464e1b82b2e3b428702" PRIMARY KEY ("organization_id", "entry_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "audit_log_action_idx" ON "audit_log"  ("organization_id", "action", "occurred_at", "entry_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "audit_log_actor_idx" ON "audit_log"  ("organization_id", "actor_id", "occurred_at", "entry_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "audit_log_time_idx" ON "audit_log"  ("organization_id", "occurred_at", "entry_id") ',
    );
    await queryRunner.query(
      `CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
       FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
       FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`,
    );
    await queryRunner.query(
      'ALTER TABLE "organization" ADD "require_two_factor" boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query(
      'ALTER TABLE "directory_user" ADD "two_factor_enabled" boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query(
      'ALTER TABLE "directory_user" ADD "two_factor_version" integer NOT NULL DEFAULT \'0\'',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "directory_user" DROP COLUMN "two_factor_version"');
    await queryRunner.query('ALTER TABLE "directory_user" DROP COLUMN "two_factor_enabled"');
    await queryRunner.query('ALTER TABLE "organization" DROP COLUMN "require_two_factor"');
    await queryRunner.query('DROP INDEX "public"."audit_log_time_idx"');
    await queryRunner.query('DROP INDEX "public"."audit_log_actor_idx"');
    await queryRunner.query('DROP INDEX "public"."audit_log_action_idx"');
    await queryRunner.query('DROP TABLE "audit_log"');
    await queryRunner.query('DROP FUNCTION audit_log_append_only()');
  }
}
