import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_POOL } from '@wp/persistence';
import type { Pool } from 'pg';
import { ApiKeyStore, type ApiKeyEntry } from './api-key.store.js';

/** Embedded mode: the registry is the platform database's `api_key` table. */
@Injectable()
export class PostgresApiKeyStore extends ApiKeyStore {
  constructor(@Inject(PLATFORM_POOL) private readonly pool: Pool) {
    super();
  }

  async find(keyHash: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ app_id: string }>({
      name: 'platform_api_key_find',
      text: 'SELECT app_id FROM api_key WHERE key_hash = $1',
      values: [keyHash],
    });
    return rows[0]?.app_id ?? null;
  }

  /** One statement: upserts the wanted rows and deletes every other one. */
  async replaceAll(entries: ApiKeyEntry[]): Promise<void> {
    await this.pool.query(
      `WITH wanted AS (
         SELECT * FROM unnest($1::text[], $2::text[]) AS w(key_hash, app_id)
       ), removed AS (
         DELETE FROM api_key WHERE key_hash NOT IN (SELECT key_hash FROM wanted)
       )
       INSERT INTO api_key (key_hash, app_id) SELECT key_hash, app_id FROM wanted
       ON CONFLICT (key_hash) DO UPDATE SET app_id = EXCLUDED.app_id, updated_at = now()
       WHERE api_key.app_id <> EXCLUDED.app_id`,
      [entries.map((e) => e.keyHash), entries.map((e) => e.appId)],
    );
  }

  async put(entry: ApiKeyEntry): Promise<void> {
    await this.pool.query(
      `INSERT INTO api_key (key_hash, app_id) VALUES ($1, $2)
       ON CONFLICT (key_hash) DO UPDATE SET app_id = EXCLUDED.app_id, updated_at = now()`,
      [entry.keyHash, entry.appId],
    );
  }

  async delete(keyHash: string): Promise<void> {
    await this.pool.query('DELETE FROM api_key WHERE key_hash = $1', [keyHash]);
  }
}
