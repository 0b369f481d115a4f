import { Injectable } from '@nestjs/common';
import { activeTransaction, TxHost } from '@wp/persistence';
import type { Theme } from './user-settings.entity.js';

/** Stored per-client settings; `null` from {@link UserSettingsRepository.find} means defaults. */
export interface StoredSettings {
  theme: Theme;
  language: string;
  sidebarOpen: boolean;
  currentOrganizationId: number | null;
  currentProjectId: number | null;
  onboarding: Record<string, unknown>;
}

/** Fields a settings PATCH may set; absent ones are left as they are. */
export type SettingsPatch = Partial<
  Pick<
    StoredSettings,
    'theme' | 'language' | 'sidebarOpen' | 'currentOrganizationId' | 'currentProjectId'
  >
>;

/** One pin as stored. */
export interface PinRow {
  organizationId: number;
  projectId: number;
  position: number;
}

const COLUMNS: Record<keyof SettingsPatch, string> = {
  theme: 'theme',
  language: 'language',
  sidebarOpen: 'sidebar_open',
  currentOrganizationId: 'current_organization_id',
  currentProjectId: 'current_project_id',
};

/** `user_settings` and `pinned_project`: the only code of the feature that touches SQL. */
@Injectable()
export class UserSettingsRepository {
  constructor(private readonly txHost: TxHost) {}

  /** The settings of (user, client), or null when none were ever written (defaults apply). */
  async find(userId: string, client: string): Promise<StoredSettings | null> {
    const rows: {
      theme: Theme;
      language: string;
      sidebar_open: boolean;
      current_organization_id: number | null;
      current_project_id: number | null;
      onboarding: Record<string, unknown>;
    }[] = await this.txHost.tx.query(
      `SELECT theme, language, sidebar_open, current_organization_id, current_project_id,
              onboarding
       FROM user_settings WHERE user_id = $1 AND client = $2`,
      [userId, client],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      theme: row.theme,
      language: row.language,
      sidebarOpen: row.sidebar_open,
      currentOrganizationId: row.current_organization_id,
      currentProjectId: row.current_project_id,
      onboarding: row.onboarding,
    };
  }

  /** Creates the row with defaults plus `patch`, or applies `patch` to it (one statement). */
  async upsert(userId: string, client: string, patch: SettingsPatch): Promise<void> {
    const manager = activeTransaction(this.txHost);
    const params: unknown[] = [userId, client];
    const columns: string[] = [];
    const values: string[] = [];
    for (const key of Object.keys(COLUMNS) as (keyof SettingsPatch)[]) {
      if (patch[key] === undefined) continue;
      columns.push(COLUMNS[key]);
      values.push(`$${params.push(patch[key])}`);
    }
    const set = columns.map((c) => `${c} = EXCLUDED.${c}`).concat('updated_at = now()');
    await manager.query(
      `INSERT INTO user_settings (user_id, client${columns.map((c) => `, ${c}`).join('')})
       VALUES ($1, $2${values.map((v) => `, ${v}`).join('')})
       ON CONFLICT (user_id, client) DO UPDATE SET ${set.join(', ')}`,
      params,
    );
  }

  /**
   * Sets one onboarding step of (user, client) unless that would make more than `maxSteps`
   * steps; returns false (nothing written) in that case. The row is created when missing and
   * locked for the rest of the transaction, so concurrent steps neither lose each other nor
   * pass the bound together.
   */
  async setOnboardingStep(
    userId: string,
    client: string,
    stepId: string,
    value: unknown,
    maxSteps: number,
  ): Promise<boolean> {
    const manager = activeTransaction(this.txHost);
    await manager.query(
      `INSERT INTO user_settings (user_id, client) VALUES ($1, $2)
       ON CONFLICT (user_id, client) DO NOTHING`,
      [userId, client],
    );
    const [row]: { steps: number; present: boolean }[] = await manager.query(
      `SELECT (SELECT count(*)::int FROM jsonb_object_keys(onboarding)) AS steps,
              onboarding ? $3 AS present
       FROM user_settings WHERE user_id = $1 AND client = $2 FOR UPDATE`,
      [userId, client, stepId],
    );
    if (!row.present && row.steps >= maxSteps) return false;
    await manager.query(
      `UPDATE user_settings
       SET onboarding = onboarding || jsonb_build_object($3::text, $4::jsonb), updated_at = now()
       WHERE user_id = $1 AND client = $2`,
      [userId, client, stepId, JSON.stringify(value)],
    );
    return true;
  }

  /** Every pin of the user (all organizations), by organization then position. */
  async findPins(userId: string): Promise<PinRow[]> {
    const rows: { organization_id: number; project_id: number; position: number }[] =
      await this.txHost.tx.query(
        `SELECT organization_id, project_id, position FROM pinned_project
         WHERE user_id = $1 ORDER BY organization_id, position, project_id`,
        [userId],
      );
    return rows.map((r) => ({
      organizationId: r.organization_id,
      projectId: r.project_id,
      position: r.position,
    }));
  }

  /**
   * Replaces the user's pins in one organization by `projectIds` (positions 0..n-1 in array
   * order). Takes a per-user transaction lock first, so two replacements of the same user
   * apply one after the other instead of mixing.
   */
  async replacePins(userId: string, organizationId: number, projectIds: number[]): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('pins:' || $1, 0))`, [
      userId,
    ]);
    await manager.query('DELETE FROM pinned_project WHERE user_id = $1 AND organization_id = $2', [
      userId,
      organizationId,
    ]);
    if (projectIds.length === 0) return;
    await manager.query(
      `INSERT INTO pinned_project (user_id, organization_id, project_id, position)
       SELECT $1, $2, id, ord - 1 FROM unnest($3::int[]) WITH ORDINALITY AS t(id, ord)`,
      [userId, organizationId, projectIds],
    );
  }

  /** Removes the user's pins in an organization (they left it), in the caller's transaction. */
  async deletePinsInOrganization(userId: string, organizationId: number): Promise<void> {
    const manager = activeTransaction(this.txHost);
    await manager.query('DELETE FROM pinned_project WHERE user_id = $1 AND organization_id = $2', [
      userId,
      organizationId,
    ]);
  }
}
