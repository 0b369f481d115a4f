import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';

/** What `seedProjects` made (ids and the figures the report prints). */
export interface Seeded {
  organizationId: number;
  ownerId: string;
  adminId: string;
  memberId: string;
  projects: number;
  memberships: number;
  keys: number;
  memberVisible: number;
  memberDenied: number;
  otherOrganizations: number;
  otherProjects: number;
  /** `created_after` of the combined-filter scenarios: one year before the seed. */
  yearAgo: Date;
  /** A window of 50 projects at ranks 901-950 of the creation order (exclusive bounds). */
  deepAfter: Date;
  deepBefore: Date;
}

const PROJECTS = 1000;
const OTHER_USERS = 300;
const OTHER_ORGANIZATIONS = 400;
const PROJECTS_PER_OTHER_ORGANIZATION = 50;

const WORDS = [
  'atlas',
  'orbit',
  'delta',
  'nimbus',
  'quartz',
  'ember',
  'fjord',
  'summit',
  'lotus',
  'cobalt',
  'tundra',
  'helix',
  'pixel',
  'rover',
  'sigma',
  'vortex',
  'willow',
  'zephyr',
  'bison',
  'cedar',
];

/**
 * Seeds the org database in SQL (the migrated schema, no service code): one organization of
 * `PROJECTS` projects — an OWNER who created them all (their OWNER member, like `POST P`), an
 * ADMIN (OWNER member of ~3%), a MEMBER explicitly in ~15% (ADMIN/MEMBER/VIEWER, ~1 in 10
 * denied), 300 other members spread 0-24 per project (3% denied); names of two words and a
 * number, dates over two years, ~half with a wallet, tools and notebooks counts with zeros,
 * 1-3 key pairs each — and `OTHER_ORGANIZATIONS` × 50 projects of other tenants, so the table
 * is not the organization alone. `members_count` and `keys_version` are computed as the service
 * keeps them; then VACUUM ANALYZE. Deterministic (`setseed`).
 */
export async function seedProjects(db: Client): Promise<Seeded> {
  const ownerId = randomUUID();
  const adminId = randomUUID();
  const memberId = randomUUID();
  const others = Array.from({ length: OTHER_USERS }, () => randomUUID());
  const all = [ownerId, adminId, memberId, ...others];

  await db.query('BEGIN');
  await db.query('SELECT setseed(0.42)');
  await db.query(
    `INSERT INTO directory_user (id, email, first_name, last_name, status)
     SELECT id, 'bench-' || n || '@example.com', 'Bench', 'User ' || n, 'active'
     FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n)`,
    [all],
  );
  const org = await db.query<{ id: number }>(
    `INSERT INTO organization (name) VALUES ('Bench organization') RETURNING id`,
  );
  const organizationId = org.rows[0].id;
  await db.query(
    `INSERT INTO organization_membership (organization_id, user_id, role)
     SELECT $1, id, CASE WHEN n = 1 THEN 'OWNER' WHEN n = 2 THEN 'ADMIN' WHEN n = 3 THEN 'MEMBER'
                         WHEN n % 10 = 0 THEN 'ADMIN' WHEN n % 10 IN (1, 2) THEN 'VIEWER'
                         ELSE 'MEMBER' END
     FROM unnest($2::uuid[]) WITH ORDINALITY AS u(id, n)`,
    [organizationId, all],
  );
  await db.query(
    `INSERT INTO project (organization_id, name, is_default, created_by, tools_count,
                          notebooks_count, has_wallet, created_at, updated_at, last_activity_at)
     SELECT $1, initcap(($3::text[])[1 + floor(random() * 20)::int]) || ' '
                || ($3::text[])[1 + floor(random() * 20)::int] || ' ' || g,
            g = 1, $2,
            CASE WHEN random() < 0.4 THEN 0 ELSE floor(random() * 12)::int END,
            CASE WHEN random() < 0.7 THEN 0 ELSE floor(random() * 6)::int END,
            random() < 0.5, c, u, greatest(u, now() - random() * interval '30 days')
     FROM (SELECT g, date_trunc('milliseconds', now() - random() * interval '730 days') AS c
           FROM generate_series(1, $4) g) s,
          LATERAL (SELECT c + random() * (now() - c) AS u) t`,
    [organizationId, ownerId, WORDS, PROJECTS],
  );
  // Memberships: the creator, the ADMIN on a few, the MEMBER on ~15%, others 0-24 each.
  await db.query(
    `INSERT INTO project_membership (project_id, user_id, organization_id, role, access_denied, created_at)
     SELECT id, $2, organization_id, 'OWNER', false, created_at FROM project WHERE organization_id = $1`,
    [organizationId, ownerId],
  );
  await db.query(
    `INSERT INTO project_membership (project_id, user_id, organization_id, role, access_denied, created_at)
     SELECT id, $2, organization_id, 'OWNER', false, created_at FROM project
     WHERE organization_id = $1 AND random() < 0.03`,
    [organizationId, adminId],
  );
  await db.query(
    `INSERT INTO project_membership (project_id, user_id, organization_id, role, access_denied, created_at)
     SELECT id, $2, organization_id,
            (ARRAY['ADMIN', 'MEMBER', 'MEMBER', 'MEMBER', 'VIEWER', 'VIEWER'])[1 + floor(random() * 6)::int],
            random() < 0.1, created_at
     FROM project WHERE organization_id = $1 AND random() < 0.15`,
    [organizationId, memberId],
  );
  await db.query(
    `INSERT INTO project_membership (project_id, user_id, organization_id, role, access_denied, created_at)
     SELECT p.id, u.id, p.organization_id,
            (ARRAY['ADMIN', 'MEMBER', 'MEMBER', 'VIEWER'])[1 + floor(random() * 4)::int],
            random() < 0.03, p.created_at
     FROM project p
     CROSS JOIN LATERAL (
       SELECT id FROM unnest($2::uuid[]) AS o(id)
       ORDER BY random() LIMIT (p.id * 0 + floor(random() ^ 2 * 25))::int
     ) u
     WHERE p.organization_id = $1`,
    [organizationId, others],
  );
  await db.query(
    `INSERT INTO project_api_key (id, project_id, organization_id, note, public_key,
                                  encrypted_secret_key, secret_key_version, secret_key_sha256,
                                  expires_at, created_by, created_at)
     SELECT gen_random_uuid(), p.id, p.organization_id,
            CASE WHEN k = 1 THEN 'Default key' ELSE 'Key ' || k END,
            'pk_' || md5(random()::text),
            'v1.' || md5(random()::text) || '.' || md5(random()::text) || '.' || md5(random()::text),
            1, encode(sha256(random()::text::bytea), 'hex'),
            CASE WHEN k > 1 AND random() < 0.3 THEN now() + interval '90 days' END,
            $2, p.created_at + (k - 1) * interval '1 day'
     FROM project p CROSS JOIN LATERAL generate_series(1, (p.id * 0 + 1 + floor(random() * 3))::int) k
     WHERE p.organization_id = $1`,
    [organizationId, ownerId],
  );
  await db.query(
    `UPDATE project p SET
       members_count = (SELECT count(*) FROM project_membership m
                        WHERE m.project_id = p.id AND NOT m.access_denied),
       keys_version = (SELECT count(*) FROM project_api_key k WHERE k.project_id = p.id)
     WHERE p.organization_id = $1`,
    [organizationId],
  );
  // Other tenants: 400 organizations × 50 projects, an owner member each.
  await db.query(
    `INSERT INTO organization (name) SELECT 'Other organization ' || g FROM generate_series(1, $1) g`,
    [OTHER_ORGANIZATIONS],
  );
  await db.query(
    `INSERT INTO project (organization_id, name, is_default, created_by, has_wallet, created_at,
                          updated_at, last_activity_at, members_count)
     SELECT o.id, 'Project ' || g, g = 1, NULL, random() < 0.5, c, c, c, 1
     FROM organization o
     CROSS JOIN LATERAL (SELECT g, now() - random() * interval '730 days' AS c
                         FROM generate_series(1, $2) g WHERE o.id > 0) s
     WHERE o.id <> $1`,
    [organizationId, PROJECTS_PER_OTHER_ORGANIZATION],
  );
  await db.query(
    `INSERT INTO project_membership (project_id, user_id, organization_id, role)
     SELECT id, gen_random_uuid(), organization_id, 'OWNER' FROM project WHERE organization_id <> $1`,
    [organizationId],
  );
  await db.query('COMMIT');
  for (const table of [
    'project',
    'project_membership',
    'organization_membership',
    'project_api_key',
  ]) {
    await db.query(`VACUUM ANALYZE ${table}`);
  }

  const count = async (sql: string, params: unknown[]) =>
    Number((await db.query<{ n: string }>(sql, params)).rows[0].n);
  const created = await db.query<{ created_at: Date }>(
    `SELECT created_at FROM project WHERE organization_id = $1 ORDER BY created_at, id`,
    [organizationId],
  );
  const at = (rank: number) => created.rows[rank - 1].created_at;
  return {
    organizationId,
    ownerId,
    adminId,
    memberId,
    projects: PROJECTS,
    memberships: await count(
      'SELECT count(*) AS n FROM project_membership WHERE organization_id = $1',
      [organizationId],
    ),
    keys: await count('SELECT count(*) AS n FROM project_api_key WHERE organization_id = $1', [
      organizationId,
    ]),
    memberVisible: await count(
      'SELECT count(*) AS n FROM project_membership WHERE user_id = $1 AND NOT access_denied',
      [memberId],
    ),
    memberDenied: await count(
      'SELECT count(*) AS n FROM project_membership WHERE user_id = $1 AND access_denied',
      [memberId],
    ),
    otherOrganizations: OTHER_ORGANIZATIONS,
    otherProjects: OTHER_ORGANIZATIONS * PROJECTS_PER_OTHER_ORGANIZATION,
    yearAgo: new Date(Date.now() - 365 * 86_400_000),
    deepAfter: at(900),
    deepBefore: at(951),
  };
}
