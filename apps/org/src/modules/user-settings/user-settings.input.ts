import { ValidationFailedError, type ValidationIssue } from '@wp/http';
import type { SettingsPatch } from './user-settings.repository.js';
import { THEMES, type Theme } from './user-settings.entity.js';

/** `client` query parameter (docs/org.md § User settings). */
export const CLIENT_PATTERN = /^[a-z0-9_-]{1,32}$/;
export const DEFAULT_CLIENT = 'web';
/** Onboarding step ids (docs/org.md § User settings). */
export const STEP_ID_PATTERN = /^[a-z0-9_]{1,64}$/;
/** Bound of one onboarding value, in bytes of its JSON text. */
export const MAX_ONBOARDING_VALUE_BYTES = 4096;
/** At most this many pinned projects per organization. */
export const MAX_PINNED_PROJECTS = 100;
/** BCP 47 tags are at most this long here (RFC 5646 § 4.4.1 buffer size). */
const MAX_LANGUAGE_LENGTH = 35;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_INT4 = 2_147_483_647;

/** An organization or project reference of a settings body: an integer id or a UUID string. */
export type SettingsId = { kind: 'int'; id: number } | { kind: 'uuid'; id: string };

/** `PATCH /user_settings` with setting fields. */
export interface SettingsInput {
  form: 'settings';
  theme?: Theme;
  language?: string;
  sidebarOpen?: boolean;
  /** `null` clears. */
  currentOrganizationId?: SettingsId | null;
  currentProjectId?: SettingsId | null;
}

/** `PATCH /user_settings` with `setting_key = sidebar`: the pinned projects of one organization. */
export interface PinsInput {
  form: 'pins';
  organizationId: number;
  projectIds: number[];
}

const SETTINGS_KEYS = [
  'theme',
  'language',
  'sidebar_open',
  'current_organization_id',
  'current_project_id',
] as const;
const PIN_KEYS = ['setting_key', 'organization_id', 'pinned_project_ids'] as const;

const ID_SCHEMA = { type: 'integer', minimum: 1, maximum: MAX_INT4 };
/** The JSON Schema of each setting field: a `Record` over SETTINGS_KEYS, so none is missing. */
const SETTINGS_FIELD_SCHEMAS: Record<(typeof SETTINGS_KEYS)[number], object> = {
  theme: { type: 'string', enum: [...THEMES] },
  language: { type: 'string', minLength: 1, maxLength: MAX_LANGUAGE_LENGTH, examples: ['pt-BR'] },
  sidebar_open: { type: 'boolean' },
  current_organization_id: {
    anyOf: [ID_SCHEMA, { type: 'string', format: 'uuid' }, { type: 'null' }],
  },
  current_project_id: { anyOf: [ID_SCHEMA, { type: 'string', format: 'uuid' }, { type: 'null' }] },
};

/**
 * The body {@link parseSettingsBody} accepts, as JSON Schema (the OpenAPI request body of
 * `PATCH /user_settings`): the settings form (at least one of SETTINGS_KEYS) or the
 * pinned-projects form (PIN_KEYS), closed, built from the same constants the parser checks.
 */
export const SETTINGS_BODY_SCHEMA = {
  anyOf: [
    {
      title: 'Settings',
      type: 'object',
      properties: SETTINGS_FIELD_SCHEMAS,
      minProperties: 1,
      additionalProperties: false,
    },
    {
      title: 'Pinned projects',
      type: 'object',
      properties: {
        setting_key: { const: 'sidebar' },
        organization_id: ID_SCHEMA,
        pinned_project_ids: {
          type: 'array',
          items: ID_SCHEMA,
          maxItems: MAX_PINNED_PROJECTS,
          uniqueItems: true,
        },
      } satisfies Record<(typeof PIN_KEYS)[number], object>,
      required: [...PIN_KEYS],
      additionalProperties: false,
    },
  ],
};

/**
 * Reads the body of `PATCH /user_settings` (docs/api.md § User settings). Stricter than the other
 * endpoints (docs/org.md § User settings): an unknown key is a 400, as is any bad value; every
 * problem is reported, each with its pointer, and nothing is written.
 * @throws ValidationFailedError 400 `VALIDATION_FAILED`
 */
export function parseSettingsBody(body: unknown): SettingsInput | PinsInput {
  const object = requireObject(body);
  const issues: ValidationIssue[] = [];
  const form = 'setting_key' in object ? 'pins' : 'settings';
  const allowed: readonly string[] = form === 'pins' ? PIN_KEYS : SETTINGS_KEYS;
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) {
      const hint = form === 'pins' ? ' in the pinned-projects form' : '';
      issues.push(issue(`/${pointerToken(key)}`, `unknown field${hint}`));
    }
  }
  const input = form === 'pins' ? readPins(object, issues) : readSettings(object, issues);
  if (issues.length > 0) throw new ValidationFailedError(issues);
  return input;
}

function readSettings(body: Record<string, unknown>, issues: ValidationIssue[]): SettingsInput {
  const input: SettingsInput = { form: 'settings' };
  if (Object.keys(body).length === 0) {
    issues.push(issue('', `send at least one of ${SETTINGS_KEYS.join(', ')}`));
  }
  if (body['theme'] !== undefined) {
    if (THEMES.includes(body['theme'] as Theme)) input.theme = body['theme'] as Theme;
    else issues.push(issue('/theme', `must be one of ${THEMES.join(', ')}`));
  }
  if (body['language'] !== undefined) {
    const language = canonicalLanguage(body['language']);
    if (language) input.language = language;
    else issues.push(issue('/language', 'must be a BCP 47 language tag, e.g. en or pt-BR'));
  }
  if (body['sidebar_open'] !== undefined) {
    if (typeof body['sidebar_open'] === 'boolean') input.sidebarOpen = body['sidebar_open'];
    else issues.push(issue('/sidebar_open', 'must be a boolean'));
  }
  for (const [key, field] of [
    ['current_organization_id', 'currentOrganizationId'],
    ['current_project_id', 'currentProjectId'],
  ] as const) {
    if (body[key] === undefined) continue;
    const id = body[key] === null ? null : settingsId(body[key]);
    if (id === undefined) {
      issues.push(issue(`/${key}`, 'must be an integer id, a UUID string or null'));
    } else input[field] = id;
  }
  return input;
}

function readPins(body: Record<string, unknown>, issues: ValidationIssue[]): PinsInput {
  if (body['setting_key'] !== 'sidebar') issues.push(issue('/setting_key', 'must be sidebar'));
  const organizationId = positiveInt(body['organization_id']);
  if (organizationId === undefined) {
    issues.push(issue('/organization_id', 'is required: a positive integer id'));
  }
  const raw = body['pinned_project_ids'];
  const projectIds: number[] = [];
  if (!Array.isArray(raw)) {
    issues.push(issue('/pinned_project_ids', 'is required: an array of integer project ids'));
  } else if (raw.length > MAX_PINNED_PROJECTS) {
    issues.push(issue('/pinned_project_ids', `at most ${MAX_PINNED_PROJECTS} projects`));
  } else {
    raw.forEach((value: unknown, i) => {
      const id = positiveInt(value);
      if (id === undefined) issues.push(issue(`/pinned_project_ids/${i}`, 'must be an integer id'));
      else if (projectIds.includes(id)) {
        issues.push(issue(`/pinned_project_ids/${i}`, `duplicate project id ${id}`));
      } else projectIds.push(id);
    });
  }
  return { form: 'pins', organizationId: organizationId ?? 0, projectIds };
}

/**
 * Body of `PATCH /user_settings/onboarding/{stepId}`: `{value}` with any JSON value (default
 * `true` when absent, also for an empty or missing body), at most 4 KiB as JSON.
 * @throws ValidationFailedError 400 for another key or a larger value
 */
/**
 * The OpenAPI description of what {@link parseOnboardingBody} accepts: no body, or an object
 * with at most `value` (any JSON, at most {@link MAX_ONBOARDING_VALUE_BYTES} bytes as JSON;
 * default `true`); any other field is a 400.
 */
export const ONBOARDING_BODY_SCHEMA = {
  type: 'object',
  properties: {
    value: {
      description: `Any JSON value, at most ${MAX_ONBOARDING_VALUE_BYTES} bytes as JSON; absent: \`true\`.`,
      example: true,
    },
  },
  additionalProperties: false,
};

/** The OpenAPI description of the `stepId` path parameter ({@link parseStepId}). */
export const STEP_ID_SCHEMA = { type: 'string', pattern: STEP_ID_PATTERN.source };

export function parseOnboardingBody(body: unknown): unknown {
  if (body === undefined || body === null || body === '') return true;
  const object = requireObject(body);
  const issues: ValidationIssue[] = Object.keys(object)
    .filter((key) => key !== 'value')
    .map((key) => issue(`/${pointerToken(key)}`, 'unknown field'));
  const value = 'value' in object ? object['value'] : true;
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_ONBOARDING_VALUE_BYTES) {
    issues.push(issue('/value', `must be at most ${MAX_ONBOARDING_VALUE_BYTES} bytes as JSON`));
  }
  if (issues.length > 0) throw new ValidationFailedError(issues);
  return value;
}

/** @throws ValidationFailedError 400 naming the path parameter */
export function parseStepId(stepId: string): string {
  if (STEP_ID_PATTERN.test(stepId)) return stepId;
  throw ValidationFailedError.at(
    { parameter: 'stepId' },
    'must match ^[a-z0-9_]{1,64}$ (lower-case letters, digits, underscores)',
  );
}

/** Canonical BCP 47 tag (`en-us` → `en-US`), or null when not well-formed. */
export function canonicalLanguage(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LANGUAGE_LENGTH) {
    return null;
  }
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    return canonical ?? null;
  } catch {
    return null;
  }
}

/**
 * docs/api.md § User settings object, identifier rule: an integer, or a string in 8-4-4-4-12
 * hexadecimal form. Anything else (numeric strings, empty strings, floats) is undefined.
 */
function settingsId(value: unknown): SettingsId | undefined {
  const id = positiveInt(value);
  if (id !== undefined) return { kind: 'int', id };
  if (typeof value === 'string' && UUID.test(value)) {
    return { kind: 'uuid', id: value.toLowerCase() };
  }
  return undefined;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_INT4
    ? value
    : undefined;
}

function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ValidationFailedError.at({ pointer: '' }, 'The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

function issue(pointer: string, detail: string): ValidationIssue {
  return { source: { pointer }, detail };
}

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Fields of a settings input that go to storage once the ids are checked. */
export function storedPatch(
  input: SettingsInput,
  ids: { organizationId?: number | null; projectId?: number | null },
): SettingsPatch {
  return {
    theme: input.theme,
    language: input.language,
    sidebarOpen: input.sidebarOpen,
    currentOrganizationId: ids.organizationId,
    currentProjectId: ids.projectId,
  };
}
