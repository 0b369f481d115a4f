import type { Role } from '@wp/contracts';

/**
 * `GET /organizations/{id}/projects` sort keys (docs/api.md § Projects). Each has a natural
 * direction; a leading `-` reverses it. Ties are broken by project id, ascending.
 * `name` and `alphabetical` are synonyms (case-insensitive A→Z); `recent_activity` puts the
 * most recently active first.
 */
export const PROJECT_SORT_KEYS = [
  'name',
  'alphabetical',
  'created_at',
  'updated_at',
  'members_count',
  'tools_count',
  'notebooks_count',
  'recent_activity',
] as const;
export type ProjectSortKey = (typeof PROJECT_SORT_KEYS)[number];

/** Every accepted `sort` value: each key, with or without a leading `-`. */
export const PROJECT_SORT_VALUES = [
  ...PROJECT_SORT_KEYS,
  ...PROJECT_SORT_KEYS.map((k) => `-${k}` as const),
];
export type ProjectSortValue = (typeof PROJECT_SORT_VALUES)[number];

/** The default order of the list. */
export const DEFAULT_PROJECT_SORT: ProjectSortValue = 'name';

/**
 * The SQL of each sort key (over `project p`, all indexed per organization) and its natural
 * direction.
 */
export const PROJECT_SORT_SQL: Record<ProjectSortKey, { expr: string; natural: 'ASC' | 'DESC' }> = {
  name: { expr: 'lower(p.name) COLLATE "C"', natural: 'ASC' },
  alphabetical: { expr: 'lower(p.name) COLLATE "C"', natural: 'ASC' },
  created_at: { expr: 'p.created_at', natural: 'ASC' },
  updated_at: { expr: 'p.updated_at', natural: 'ASC' },
  members_count: { expr: 'p.members_count', natural: 'ASC' },
  tools_count: { expr: 'p.tools_count', natural: 'ASC' },
  notebooks_count: { expr: 'p.notebooks_count', natural: 'ASC' },
  recent_activity: { expr: 'p.last_activity_at', natural: 'DESC' },
};

/** The filters of the project list, already validated. */
export interface ProjectListFilter {
  /** The caller's effective project role is one of these. */
  userRoles?: Role[];
  hasWallet?: boolean;
  hasTools?: boolean;
  hasNotebooks?: boolean;
  minMembers?: number;
  maxMembers?: number;
  /** Case-insensitive substring of the name (`%` and `_` match themselves). */
  search?: string;
  /** Strictly after / strictly before. */
  createdAfter?: Date;
  createdBefore?: Date;
  sort: ProjectSortValue;
}

/**
 * SQL twin of `effectiveProjectRole` (contracts `permissions.ts`), for filtering in the
 * database: organization OWNER → OWNER; ADMIN → OWNER if project OWNER else ADMIN; otherwise
 * nothing when access is denied, else the project role. `orgRole` is a SQL expression (a bound
 * parameter); `pm` is the caller's `project_membership` row (may be NULL). An e2e test checks it
 * against the TypeScript function for every combination.
 */
export function effectiveRoleSql(orgRole: string): string {
  return `(CASE
      WHEN ${orgRole} = 'OWNER' THEN 'OWNER'
      WHEN ${orgRole} = 'ADMIN' THEN CASE WHEN pm.role = 'OWNER' THEN 'OWNER' ELSE 'ADMIN' END
      WHEN pm.access_denied THEN NULL
      ELSE pm.role
    END)`;
}

/** Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
