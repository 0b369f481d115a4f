/**
 * A member's names and email beside a membership, from org's user directory (a read model of
 * auth, docs/architecture.md § Data ownership and events: it may lag auth by up to 2 s). Names
 * are empty strings, never null, when the directory does not know them (docs/architecture.md
 * § Session names).
 */
export interface MemberDirectoryFields {
  email: string | null;
  firstName: string;
  lastName: string;
}

/** The directory columns as a membership query selects them. */
export interface RawMemberDirectoryFields {
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

/** Selected columns and join of the directory for a membership table aliased `alias`. */
export function memberDirectorySql(alias: string): { columns: string; join: string } {
  return {
    columns: 'd.email, d.first_name, d.last_name',
    join: `LEFT JOIN directory_user d ON d.id = ${alias}.user_id`,
  };
}

export function toMemberDirectoryFields(r: RawMemberDirectoryFields): MemberDirectoryFields {
  return { email: r.email, firstName: r.first_name ?? '', lastName: r.last_name ?? '' };
}
