// The projects-list scenarios: caller, query string and the equivalent repository filter.
import type { ProjectListFilter } from '../../apps/org/src/modules/tenants/project-list.js';
import type { Seeded } from '../support/projects-seed.js';

export type Caller = 'member' | 'admin';

export interface Scenario {
  caller: Caller;
  /** Query string of `GET P` (no leading `?`). */
  query: string;
  /** The same request as a repository filter (checked against the HTTP answer). */
  filter: ProjectListFilter;
  explain: boolean;
}

const COMBINED = (createdAfter: Date) =>
  `user_role=ADMIN,MEMBER&min_members=2&search=a&sort=-members_count&created_after=${createdAfter.toISOString()}`;

const combinedFilter = (createdAfter: Date): ProjectListFilter => ({
  userRoles: ['ADMIN', 'MEMBER'],
  minMembers: 2,
  search: 'a',
  sort: '-members_count',
  createdAfter,
});

/** Scenarios: caller, query, and the equivalent repository filter. */
export const SCENARIOS: Record<string, (s: Seeded) => Scenario> = {
  'member-default': () => ({
    caller: 'member',
    query: '',
    filter: { sort: 'name' },
    explain: false,
  }),
  'member-combined': (s) => ({
    caller: 'member',
    query: COMBINED(s.yearAgo),
    filter: combinedFilter(s.yearAgo),
    explain: true,
  }),
  'admin-default': () => ({ caller: 'admin', query: '', filter: { sort: 'name' }, explain: false }),
  'admin-combined': (s) => ({
    caller: 'admin',
    query: COMBINED(s.yearAgo),
    filter: combinedFilter(s.yearAgo),
    explain: true,
  }),
  // GET P is not paginated (docs/api.md § Projects): "deep in the list" is a window of 50
  // projects at ranks 901-950 of the creation order, selected by created_after/created_before.
  'admin-deep': (s) => ({
    caller: 'admin',
    query: `sort=created_at&created_after=${s.deepAfter.toISOString()}&created_before=${s.deepBefore.toISOString()}`,
    filter: { sort: 'created_at', createdAfter: s.deepAfter, createdBefore: s.deepBefore },
    explain: true,
  }),
};

export function listPath(s: Seeded): string {
  return `/v1/api/organizations/${s.organizationId}/projects`;
}
