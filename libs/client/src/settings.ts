import type { SettingsChanges, UserSettingsDocument } from './documents.js';
import { normaliseSettingsId } from './ids.js';

/** Debounce of settings writes (docs/api.md § Limits), ms. */
export const SETTINGS_DEBOUNCE_MS = 500;

/**
 * A settings change as the application gives it: the PATCH fields, with organization and
 * project ids in any form a UI holds them (`"42"`, `42`, a UUID, `""`); the store normalises
 * them (docs/api.md § User settings).
 */
export type SettingsUpdate = Omit<
  SettingsChanges,
  'current_organization_id' | 'current_project_id'
> & {
  current_organization_id?: string | number | null;
  current_project_id?: string | number | null;
};

/** The local settings: what `GET /user_settings` answered, with the changes made since. */
export type SettingsValues = Omit<Partial<UserSettingsDocument>, keyof SettingsChanges> &
  SettingsChanges;

export interface SettingsStoreOptions {
  /** Sends the merged changes (PATCH /user_settings); rejects when the platform refuses. */
  send: (changes: SettingsChanges) => Promise<void>;
  /** Told about a PATCH that failed; local state stays as the user set it. */
  onError?: (error: unknown) => void;
  debounceMs?: number;
}

/**
 * User settings with the contract's client rules (docs/api.md § User settings,
 * docs/api.md § Limits): a write applies to the local state at once and the PATCH goes out in the
 * background; changes made within 500 ms are merged into one PATCH; a failed PATCH leaves the local
 * state unchanged and is reported through `onError`. `current_organization_id` /
 * `current_project_id` are normalised (UUID → string, numeric → integer, invalid or empty → left
 * out).
 */
export class SettingsStore {
  private state: SettingsValues = {};
  private pending: SettingsChanges = {};
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly options: SettingsStoreOptions) {}

  /** The local state (what the user sees). */
  get values(): Readonly<SettingsValues> {
    return this.state;
  }

  /** Replaces the local state with what the platform answered (GET /user_settings). */
  load(values: SettingsValues): void {
    this.state = { ...values };
  }

  /** Applies `changes` locally now; the PATCH follows after the debounce. */
  update(changes: SettingsUpdate): void {
    const normalised = normaliseIds(changes);
    this.state = { ...this.state, ...normalised };
    this.pending = { ...this.pending, ...normalised };
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.flush();
    }, this.options.debounceMs ?? SETTINGS_DEBOUNCE_MS);
  }

  /** Sends what is pending now (e.g. before the page closes); resolves when it is settled. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const changes = this.pending;
    this.pending = {};
    if (Object.keys(changes).length === 0) return this.inFlight;
    this.inFlight = this.inFlight.then(() =>
      this.options.send(changes).catch((error: unknown) => this.options.onError?.(error)),
    );
    return this.inFlight;
  }
}

function normaliseIds(changes: SettingsUpdate): SettingsChanges {
  const { current_organization_id: organization, current_project_id: project, ...rest } = changes;
  const out: SettingsChanges = { ...rest };
  const organizationId = normaliseSettingsId(organization);
  if (organizationId !== undefined) out.current_organization_id = organizationId;
  const projectId = normaliseSettingsId(project);
  if (projectId !== undefined) out.current_project_id = projectId;
  return out;
}
