import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AnalyticsStorage1795331841567 implements MigrationInterface {
  name = 'AnalyticsStorage1795331841567';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "analytics_project" ("project_id" integer NOT NULL, "organization_id" integer NOT NULL, "keys_version" integer NOT NULL DEFAULT \'-1\', "deleted_at" TIMESTAMP WITH TIME ZONE, "purged_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_596fd395e7cea2f55b230b0b011" PRIMARY KEY ("project_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "analytics_project_updated_at_idx" ON "analytics_project"  ("updated_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "project_api_key" ("public_key" text NOT NULL, "project_id" integer NOT NULL, "key_id" text NOT NULL, "secret_key_sha256" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_41113ff35c62c3cb7e49c8de824" PRIMARY KEY ("public_key"))',
    );
    await queryRunner.query(
      'CREATE INDEX "project_api_key_project_idx" ON "project_api_key"  ("project_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "daily_trace_rollup" ("project_id" integer NOT NULL, "day" date NOT NULL, "trace_name" text NOT NULL, "user_id" text NOT NULL, "tags" text array NOT NULL, "count_traces" bigint NOT NULL DEFAULT \'0\', CONSTRAINT "PK_3755164b3521c40d7b44b78c768" PRIMARY KEY ("project_id", "day", "trace_name", "user_id", "tags"))',
    );
    await queryRunner.query(
      'CREATE TABLE "daily_usage_rollup" ("project_id" integer NOT NULL, "day" date NOT NULL, "trace_name" text NOT NULL, "user_id" text NOT NULL, "tags" text array NOT NULL, "model" text NOT NULL, "count_observations" bigint NOT NULL DEFAULT \'0\', "count_traces" bigint NOT NULL DEFAULT \'0\', "input_usage" bigint NOT NULL DEFAULT \'0\', "output_usage" bigint NOT NULL DEFAULT \'0\', "total_usage" bigint NOT NULL DEFAULT \'0\', "total_cost" numeric NOT NULL DEFAULT \'0\', CONSTRAINT "PK_d899375e768612a218ed94d4be4" PRIMARY KEY ("project_id", "day", "trace_name", "user_id", "tags", "model"))',
    );
    await queryRunner.query(
      'CREATE TABLE "ingestion_event" ("project_id" integer NOT NULL, "event_id" text NOT NULL, "seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b1be408fd4f3a5ce1ed7a88e2d7" PRIMARY KEY ("project_id", "event_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ingestion_event_seen_at_idx" ON "ingestion_event"  ("seen_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "model_price" ("id" text NOT NULL, "project_id" integer, "model_name" text NOT NULL, "match_pattern" text NOT NULL, "start_date" TIMESTAMP WITH TIME ZONE, "unit" text NOT NULL DEFAULT \'TOKENS\', "prices" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_71f54617f08d2ddf9cbc4bfe861" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "model_price_project_idx" ON "model_price"  ("project_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "observation" ("project_id" integer NOT NULL, "id" text NOT NULL, "trace_id" text NOT NULL, "parent_observation_id" text, "type" text NOT NULL, "name" text, "start_time" TIMESTAMP WITH TIME ZONE NOT NULL, "end_time" TIMESTAMP WITH TIME ZONE, "completion_start_time" TIMESTAMP WITH TIME ZONE, "model" text, "model_parameters" jsonb, "input" jsonb, "output" jsonb, "metadata" jsonb, "level" text NOT NULL DEFAULT \'DEFAULT\', "status_message" text, "version" text, "environment" text NOT NULL DEFAULT \'default\', "prompt_name" text, "prompt_version" integer, "usage_details" jsonb NOT NULL DEFAULT \'{}\', "cost_details" jsonb NOT NULL DEFAULT \'{}\', "provided_usage_details" jsonb NOT NULL DEFAULT \'{}\', "provided_cost_details" jsonb NOT NULL DEFAULT \'{}\', "input_usage" bigint NOT NULL DEFAULT \'0\', "output_usage" bigint NOT NULL DEFAULT \'0\', "total_usage" bigint NOT NULL DEFAULT \'0\', "total_cost" numeric, "model_id" text, "input_price" double precision, "output_price" double precision, "total_price" double precision, "unit" text, "implicit" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_340ab989afeb03e24e7a8122a81" PRIMARY KEY ("project_id", "id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "observation_project_start_idx" ON "observation"  ("project_id", "start_time") ',
    );
    await queryRunner.query(
      'CREATE INDEX "observation_project_trace_idx" ON "observation"  ("project_id", "trace_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "score" ("project_id" integer NOT NULL, "id" text NOT NULL, "trace_id" text, "observation_id" text, "session_id" text, "dataset_run_id" text, "name" text NOT NULL, "value" double precision, "string_value" text, "data_type" text NOT NULL, "source" text NOT NULL DEFAULT \'API\', "comment" text, "metadata" jsonb, "config_id" text, "queue_id" text, "environment" text NOT NULL DEFAULT \'default\', "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5ca7e080adfc5380c5c6609768f" PRIMARY KEY ("project_id", "id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "score_project_trace_idx" ON "score"  ("project_id", "trace_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "trace" ("project_id" integer NOT NULL, "id" text NOT NULL, "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "name" text, "user_id" text, "session_id" text, "release" text, "version" text, "input" jsonb, "output" jsonb, "metadata" jsonb, "tags" text array NOT NULL DEFAULT \'{}\', "public" boolean NOT NULL DEFAULT false, "environment" text NOT NULL DEFAULT \'default\', "implicit" boolean NOT NULL DEFAULT false, "rollup" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_becc0f0936f0e6dd6f592322497" PRIMARY KEY ("project_id", "id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "trace_project_environment_idx" ON "trace"  ("project_id", "environment", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "trace_project_version_idx" ON "trace"  ("project_id", "version", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "trace_project_release_idx" ON "trace"  ("project_id", "release", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "trace_project_session_idx" ON "trace"  ("project_id", "session_id", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "trace_project_name_idx" ON "trace"  ("project_id", "name", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "trace_project_user_idx" ON "trace"  ("project_id", "user_id", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "trace_project_timestamp_idx" ON "trace"  ("project_id", "timestamp", "id") ',
    );
    // By hand: TypeORM cannot declare a GIN index (the entity marks it synchronize: false).
    await queryRunner.query('CREATE INDEX "trace_tags_gin_idx" ON "trace" USING gin ("tags")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."trace_tags_gin_idx"');
    await queryRunner.query('DROP INDEX "public"."trace_project_timestamp_idx"');
    await queryRunner.query('DROP INDEX "public"."trace_project_user_idx"');
    await queryRunner.query('DROP INDEX "public"."trace_project_name_idx"');
    await queryRunner.query('DROP INDEX "public"."trace_project_session_idx"');
    await queryRunner.query('DROP INDEX "public"."trace_project_release_idx"');
    await queryRunner.query('DROP INDEX "public"."trace_project_version_idx"');
    await queryRunner.query('DROP INDEX "public"."trace_project_environment_idx"');
    await queryRunner.query('DROP TABLE "trace"');
    await queryRunner.query('DROP INDEX "public"."score_project_trace_idx"');
    await queryRunner.query('DROP TABLE "score"');
    await queryRunner.query('DROP INDEX "public"."observation_project_trace_idx"');
    await queryRunner.query('DROP INDEX "public"."observation_project_start_idx"');
    await queryRunner.query('DROP TABLE "observation"');
    await queryRunner.query('DROP INDEX "public"."model_price_project_idx"');
    await queryRunner.query('DROP TABLE "model_price"');
    await queryRunner.query('DROP INDEX "public"."ingestion_event_seen_at_idx"');
    await queryRunner.query('DROP TABLE "ingestion_event"');
    await queryRunner.query('DROP TABLE "daily_usage_rollup"');
    await queryRunner.query('DROP TABLE "daily_trace_rollup"');
    await queryRunner.query('DROP INDEX "public"."project_api_key_project_idx"');
    await queryRunner.query('DROP TABLE "project_api_key"');
    await queryRunner.query('DROP INDEX "public"."analytics_project_updated_at_idx"');
    await queryRunner.query('DROP TABLE "analytics_project"');
  }
}
