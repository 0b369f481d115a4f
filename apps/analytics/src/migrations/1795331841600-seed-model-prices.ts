import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Seeds the global model price table (docs/analytics.md § Cost) with list prices of common models
 * in USD per token, as published by their vendors. Later price changes get their own migration (or
 * a row with a later `start_date`); operators override with `ANALYTICS_MODEL_PRICES` or with
 * project rows.
 */
const SEED: {
  id: string;
  modelName: string;
  matchPattern: string;
  prices: Record<string, number>;
}[] = [
  {
    id: 'seed:gpt-4o',
    modelName: 'gpt-4o',
    matchPattern: '(?i)^(openai/)?gpt-4o(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 2.5e-6,
      input_cached_tokens: 1.25e-6,
      output: 1e-5,
    },
  },
  {
    id: 'seed:gpt-4o-mini',
    modelName: 'gpt-4o-mini',
    matchPattern: '(?i)^(openai/)?gpt-4o-mini(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 1.5e-7,
      input_cached_tokens: 7.5e-8,
      output: 6e-7,
    },
  },
  {
    id: 'seed:gpt-4.1',
    modelName: 'gpt-4.1',
    matchPattern: '(?i)^(openai/)?gpt-4\\.1(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 2e-6,
      input_cached_tokens: 5e-7,
      output: 8e-6,
    },
  },
  {
    id: 'seed:gpt-4.1-mini',
    modelName: 'gpt-4.1-mini',
    matchPattern: '(?i)^(openai/)?gpt-4\\.1-mini(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 4e-7,
      input_cached_tokens: 1e-7,
      output: 1.6e-6,
    },
  },
  {
    id: 'seed:gpt-4.1-nano',
    modelName: 'gpt-4.1-nano',
    matchPattern: '(?i)^(openai/)?gpt-4\\.1-nano(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 1e-7,
      input_cached_tokens: 2.5e-8,
      output: 4e-7,
    },
  },
  {
    id: 'seed:gpt-4-turbo',
    modelName: 'gpt-4-turbo',
    matchPattern: '(?i)^(openai/)?gpt-4-turbo(-\\d{4}-\\d{2}-\\d{2}|-preview)?$',
    prices: {
      input: 1e-5,
      output: 3e-5,
    },
  },
  {
    id: 'seed:gpt-4',
    modelName: 'gpt-4',
    matchPattern: '(?i)^(openai/)?gpt-4(-0613)?$',
    prices: {
      input: 3e-5,
      output: 6e-5,
    },
  },
  {
    id: 'seed:gpt-3.5-turbo',
    modelName: 'gpt-3.5-turbo',
    matchPattern: '(?i)^(openai/)?gpt-3\\.5-turbo(-0125|-1106)?$',
    prices: {
      input: 5e-7,
      output: 1.5e-6,
    },
  },
  {
    id: 'seed:o1',
    modelName: 'o1',
    matchPattern: '(?i)^(openai/)?o1(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 1.5e-5,
      input_cached_tokens: 7.5e-6,
      output: 6e-5,
    },
  },
  {
    id: 'seed:o3',
    modelName: 'o3',
    matchPattern: '(?i)^(openai/)?o3(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 2e-6,
      input_cached_tokens: 5e-7,
      output: 8e-6,
    },
  },
  {
    id: 'seed:o3-mini',
    modelName: 'o3-mini',
    matchPattern: '(?i)^(openai/)?o3-mini(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 1.1e-6,
      input_cached_tokens: 5.5e-7,
      output: 4.4e-6,
    },
  },
  {
    id: 'seed:o4-mini',
    modelName: 'o4-mini',
    matchPattern: '(?i)^(openai/)?o4-mini(-\\d{4}-\\d{2}-\\d{2})?$',
    prices: {
      input: 1.1e-6,
      input_cached_tokens: 2.75e-7,
      output: 4.4e-6,
    },
  },
  {
    id: 'seed:text-embedding-3-small',
    modelName: 'text-embedding-3-small',
    matchPattern: '(?i)^(openai/)?text-embedding-3-small$',
    prices: {
      total: 2e-8,
    },
  },
  {
    id: 'seed:text-embedding-3-large',
    modelName: 'text-embedding-3-large',
    matchPattern: '(?i)^(openai/)?text-embedding-3-large$',
    prices: {
      total: 1.3e-7,
    },
  },
  {
    id: 'seed:claude-3-haiku',
    modelName: 'claude-3-haiku',
    matchPattern: '(?i)^(anthropic/)?claude-3-haiku(-\\d{8})?$',
    prices: {
      input: 2.5e-7,
      output: 1.25e-6,
    },
  },
  {
    id: 'seed:claude-3-5-haiku',
    modelName: 'claude-3-5-haiku',
    matchPattern: '(?i)^(anthropic/)?claude-3-5-haiku(-\\d{8}|-latest)?$',
    prices: {
      input: 8e-7,
      output: 4e-6,
    },
  },
  {
    id: 'seed:claude-3-5-sonnet',
    modelName: 'claude-3-5-sonnet',
    matchPattern: '(?i)^(anthropic/)?claude-3-5-sonnet(-\\d{8}|-latest)?$',
    prices: {
      input: 3e-6,
      output: 1.5e-5,
    },
  },
  {
    id: 'seed:claude-3-7-sonnet',
    modelName: 'claude-3-7-sonnet',
    matchPattern: '(?i)^(anthropic/)?claude-3-7-sonnet(-\\d{8}|-latest)?$',
    prices: {
      input: 3e-6,
      output: 1.5e-5,
    },
  },
  {
    id: 'seed:claude-sonnet-4',
    modelName: 'claude-sonnet-4',
    matchPattern: '(?i)^(anthropic/)?claude-sonnet-4(-\\d{8}|-0)?$',
    prices: {
      input: 3e-6,
      output: 1.5e-5,
    },
  },
  {
    id: 'seed:claude-3-opus',
    modelName: 'claude-3-opus',
    matchPattern: '(?i)^(anthropic/)?claude-3-opus(-\\d{8}|-latest)?$',
    prices: {
      input: 1.5e-5,
      output: 7.5e-5,
    },
  },
  {
    id: 'seed:claude-opus-4',
    modelName: 'claude-opus-4',
    matchPattern: '(?i)^(anthropic/)?claude-opus-4(-\\d{8}|-0)?$',
    prices: {
      input: 1.5e-5,
      output: 7.5e-5,
    },
  },
  {
    id: 'seed:gemini-1.5-pro',
    modelName: 'gemini-1.5-pro',
    matchPattern: '(?i)^(google/)?gemini-1\\.5-pro(-\\d{3}|-latest)?$',
    prices: {
      input: 1.25e-6,
      output: 5e-6,
    },
  },
  {
    id: 'seed:gemini-1.5-flash',
    modelName: 'gemini-1.5-flash',
    matchPattern: '(?i)^(google/)?gemini-1\\.5-flash(-\\d{3}|-latest)?$',
    prices: {
      input: 7.5e-8,
      output: 3e-7,
    },
  },
  {
    id: 'seed:gemini-2.0-flash',
    modelName: 'gemini-2.0-flash',
    matchPattern: '(?i)^(google/)?gemini-2\\.0-flash(-\\d{3})?$',
    prices: {
      input: 1e-7,
      output: 4e-7,
    },
  },
  {
    id: 'seed:gemini-2.5-pro',
    modelName: 'gemini-2.5-pro',
    matchPattern: '(?i)^(google/)?gemini-2\\.5-pro$',
    prices: {
      input: 1.25e-6,
      output: 1e-5,
    },
  },
  {
    id: 'seed:gemini-2.5-flash',
    modelName: 'gemini-2.5-flash',
    matchPattern: '(?i)^(google/)?gemini-2\\.5-flash$',
    prices: {
      input: 3e-7,
      output: 2.5e-6,
    },
  },
  {
    id: 'seed:mistral-large',
    modelName: 'mistral-large',
    matchPattern: '(?i)^(mistral/)?mistral-large(-latest|-\\d{4})?$',
    prices: {
      input: 2e-6,
      output: 6e-6,
    },
  },
  {
    id: 'seed:mistral-small',
    modelName: 'mistral-small',
    matchPattern: '(?i)^(mistral/)?mistral-small(-latest|-\\d{4})?$',
    prices: {
      input: 2e-7,
      output: 6e-7,
    },
  },
];

export class SeedModelPrices1795331841600 implements MigrationInterface {
  name = 'SeedModelPrices1795331841600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `INSERT INTO model_price (id, project_id, model_name, match_pattern, start_date, unit, prices)
       SELECT x.id, NULL, x."modelName", x."matchPattern", NULL, 'TOKENS', x.prices
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, "modelName" text, "matchPattern" text, prices jsonb)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(SEED)],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM model_price WHERE id LIKE 'seed:%'`);
  }
}
