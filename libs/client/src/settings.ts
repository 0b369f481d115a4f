import { normaliseSettingsId } from './ids.js';

/** Debounce of settings writes (docs/api.md § Limits), ms. */
export const SETTINGS_DEBOUNCE_MS = 500;

export type SettingsValues = Record<string, unknown>;

export interface SettingsStoreOptions {
  /** Sends the merged changes (PATCH /user_settings); rejects when the platform refuses. */
  send: (changes: SettingsValues) => Promise<void>;
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
  private pending: SettingsValues = {};
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
  update(changes: SettingsValues): void {
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

function normaliseIds(changes: SettingsValues): SettingsValues {
  const out: SettingsValues = {};
  for (const [key, value] of Object.entries(changes)) {
    if (key === 'current_organization_id' || key === 'current_project_id') {
      const id = normaliseSettingsId(value);
      if (id !== undefined) out[key] = id;
    } else {
      out[key] = value;
    }
  }
  return out;
}
