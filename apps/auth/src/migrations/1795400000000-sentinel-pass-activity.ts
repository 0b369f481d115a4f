import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sentinel Pass (docs/org.md § Sentinel Pass): the credential read model of
 * `org.sentinel_pass.changed`, the membership read model of `org.membership.changed` (who may read
 * a pass's activity), and the agent activity log with an index per filter of the activity
 * endpoints.
 */
export class SentinelPassActivity1795400000000 implements MigrationInterface {
  name = 'SentinelPassActivity1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sentinel_pass" ("id" uuid NOT NULL, "organization_id" integer NOT NULL, "project_id" integer NOT NULL, "active" boolean NOT NULL, "deleted" boolean NOT NULL DEFAULT false, "key_hash" character(64), "expires_at" TIMESTAMP WITH TIME ZONE, "allowed_referers" text array NOT NULL DEFAULT '{}', "scopes" text array NOT NULL DEFAULT '{}', "permissions" text array NOT NULL DEFAULT '{}', "version" integer NOT NULL, "usage_count" bigint NOT NULL DEFAULT 0, "credential_epoch" integer NOT NULL DEFAULT 0, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_sentinel_pass" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "membership" ("organization_id" integer NOT NULL, "project_id" integer NOT NULL, "user_id" uuid NOT NULL, "role" text, "access_denied" boolean NOT NULL DEFAULT false, "version" integer NOT NULL, CONSTRAINT "PK_membership" PRIMARY KEY ("user_id", "organization_id", "project_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "agent_activity" ("id" uuid NOT NULL, "agent_user_id" uuid NOT NULL, "activity_type" text NOT NULL, "service" text NOT NULL, "endpoint" text NOT NULL, "method" text NOT NULL, "status_code" integer NOT NULL, "latency_ms" double precision NOT NULL, "success" boolean NOT NULL, "client_address" text, "error_message" text, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_agent_activity" PRIMARY KEY ("id"))`,
    );
    const indexes: [string, string][] = [
      ['agent_activity_time_idx', '"agent_user_id", "occurred_at", "id"'],
      ['agent_activity_type_idx', '"agent_user_id", "activity_type", "occurred_at"'],
      ['agent_activity_endpoint_idx', '"agent_user_id", "endpoint", "occurred_at"'],
      ['agent_activity_success_idx', '"agent_user_id", "success", "occurred_at"'],
      ['agent_activity_latency_idx', '"agent_user_id", "latency_ms"'],
      ['agent_activity_status_idx', '"agent_user_id", "status_code"'],
    ];
    for (const [name, columns] of indexes) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "agent_activity" (${columns})`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "agent_activity"');
    await queryRunner.query('DROP TABLE "membership"');
    await queryRunner.query('DROP TABLE "sentinel_pass"');
  }
}
